/**
 * Upstream bearertoken_test.go (TestAuthenticateRequestBadValue, TestBearerToken) plus Go's
 * strings.TrimSpace on the header's raw bytes: node hands header values over as latin1 (one char
 * per byte), the way these cases build them.
 */
import { describe, expect, it } from "vitest";
import type { AuthResponse } from "../../authenticator/interfaces.ts";
import { BearerTokenAuthenticator, invalidToken } from "./bearertoken.ts";

/** A header value as node delivers it: the bytes, one latin1 char each. */
const wire = (...parts: (string | number[])[]): string =>
  parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p)).toString("latin1")).join("");

/** An authenticator knowing only `token`, recording what it was asked. */
function authenticatorFor(token: string): { auth: BearerTokenAuthenticator; asked: string[] } {
  const asked: string[] = [];
  const auth = new BearerTokenAuthenticator({
    authenticateToken: (t): AuthResponse | undefined => {
      asked.push(t);
      return t === token ? { user: { name: "alice", uid: "1", groups: [] } } : undefined;
    },
  });
  return { auth, asked };
}

async function outcome(auth: BearerTokenAuthenticator, header: string | undefined): Promise<string> {
  try {
    const r = await auth.authenticateRequest({ headers: header === undefined ? {} : { authorization: header } });
    return r ? `user ${r.user.name}` : "no credential";
  } catch (e) {
    return `error ${(e as Error).message}`;
  }
}

describe("BearerTokenAuthenticator", () => {
  it.each([
    ["no header", undefined],
    ["Bearer", "Bearer"],
    ["bear token", "bear token"],
    ["Bearer: token", "Bearer: token"],
    ["an empty token (two spaces)", "Bearer  token"],
  ])("TestAuthenticateRequestBadValue: %s is no credential and asks no one", async (_name, header) => {
    const { auth, asked } = authenticatorFor("token");
    expect(await outcome(auth, header)).toBe("no credential");
    expect(asked).toEqual([]);
  });

  it.each([
    ["a valid token", wire("Bearer token"), "user alice"],
    ["a lower-case scheme", wire("bearer token"), "user alice"],
    ["a trailing word", wire("Bearer token extra"), "user alice"],
    ["ASCII spaces around", wire(" \t Bearer token \r\n\v\f"), "user alice"],
    // 0xA0 alone is not UTF-8: Go's TrimSpace sees RuneError, not U+00A0, and keeps it.
    ["a trailing 0xA0 byte", wire("Bearer token", [0xa0]), `error ${invalidToken}`],
    ["a leading 0xA0 byte", wire([0xa0], "Bearer token"), "no credential"],
    ["a trailing 0x85 byte", wire("Bearer token", [0x85]), `error ${invalidToken}`],
    // U+00A0, U+0085, U+2028 and U+3000 in UTF-8 are Unicode White_Space: trimmed.
    ["a trailing U+00A0", wire("Bearer token\u00a0"), "user alice"],
    ["a trailing U+0085 (NEL, which JavaScript's trim keeps)", wire("Bearer token\u0085"), "user alice"],
    ["a leading U+3000 and trailing U+2028", wire("\u3000Bearer token\u2028"), "user alice"],
    // U+FEFF is no space in Go (JavaScript's trim strips it).
    ["a trailing U+FEFF", wire("Bearer token\ufeff"), `error ${invalidToken}`],
    ["an unknown token", wire("Bearer other"), `error ${invalidToken}`],
  ])("TestBearerToken: %s", async (_name, header, want) => {
    const { auth } = authenticatorFor("token");
    expect(await outcome(auth, header)).toBe(want);
  });

  it("passes a non-ASCII token on as the UTF-8 text it was sent as", async () => {
    const { auth, asked } = authenticatorFor("tök€n");
    expect(await outcome(auth, wire("Bearer tök€n"))).toBe("user alice");
    expect(asked).toEqual(["tök€n"]);
  });
});
