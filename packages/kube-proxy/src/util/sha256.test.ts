/** The JS SHA-256 against node:crypto: every length across the one/two/three-block boundaries, names, UTF-8. */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { base32, sha256Base32, sha256Base32Prefix } from "./hash.ts";
import { sha256 } from "./sha256.ts";

const want = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");
const got = (s: string) => Buffer.from(sha256(s)).toString("hex");

describe("sha256", () => {
  it("matches node:crypto for ASCII strings of length 0..200", () => {
    for (let n = 0; n <= 200; n++) {
      const s = Array.from({ length: n }, (_, i) => String.fromCharCode(32 + ((i * 7 + n) % 95))).join("");
      expect({ n, h: got(s) }).toEqual({ n, h: want(s) });
    }
  });
  it.each([
    ["", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
    ["abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
    ["abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"],
  ])("FIPS 180-2 vector %j", (s, hex) => {
    expect(got(s)).toBe(hex);
  });
  it("hashes non-ASCII input as UTF-8 (node:crypto fallback)", () => {
    for (const s of ["ns/ü/tcp/p", "名前/svc", "a\u0080b"]) expect(got(s)).toBe(want(s));
  });
  it("gives upstream's chain-name prefixes", () => {
    const name = "scale/svc-1/tcp/http__fd00.10.64..1.1/8080";
    expect(sha256Base32Prefix(name, 8)).toBe(base32(createHash("sha256").update(name).digest()).slice(0, 8));
    expect(sha256Base32(name)).toBe(base32(createHash("sha256").update(name).digest()));
  });
});
