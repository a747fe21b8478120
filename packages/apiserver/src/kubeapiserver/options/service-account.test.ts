import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseUpOptions } from "../../controlplane/options.ts";
import { completeServiceAccountFlags, parseServiceAccountFlags, validateServiceAccountFlags } from "./service-account.ts";

const dir = mkdtempSync(join(tmpdir(), "sa-flags-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const keyFile = join(dir, "sa.key");
writeFileSync(keyFile, rsa.privateKey.export({ type: "pkcs1", format: "pem" }));
const pubFile = join(dir, "sa.pub");
writeFileSync(pubFile, rsa.publicKey.export({ type: "spki", format: "pem" }));

const flags = (...pairs: [string, string][]) => parseServiceAccountFlags(pairs);

// pkg/kubeapiserver/options/authentication_test.go TestAuthenticationValidate and
// pkg/controlplane/apiserver/options/validation_test.go TestValidateServiceAccountTokenSigningConfig.
describe("validateServiceAccountFlags", () => {
  const signing: [string, string] = ["--service-account-signing-key-file", keyFile];
  it.each([
    { name: "valid", pairs: [["--service-account-issuer", "http://foo.bar.com"], signing], errs: [] },
    {
      name: "multiple issuers",
      pairs: [["--service-account-issuer", "http://foo.bar.com"], ["--service-account-issuer", "https://baz.com"], signing],
      errs: [],
    },
    {
      name: "empty issuer",
      pairs: [["--service-account-issuer", ""], signing],
      errs: [
        "service-account-issuer should not be an empty string",
        "--service-account-signing-key-file, --service-account-issuer, and --api-audiences should be specified together",
      ],
    },
    {
      name: "duplicate issuers",
      pairs: [["--service-account-issuer", "http://foo.bar.com"], ["--service-account-issuer", "http://foo.bar.com"], signing],
      errs: ['service-account-issuer "http://foo.bar.com" is already specified'],
    },
    {
      name: "max expiration below an hour",
      pairs: [["--service-account-issuer", "http://foo.bar.com"], signing, ["--service-account-max-token-expiration", "59m"]],
      errs: ["the service-account-max-token-expiration must be between 1 hour and 2^32 seconds"],
    },
    {
      name: "issuer without a signing key",
      pairs: [["--service-account-issuer", "http://foo.bar.com"]],
      errs: ["--service-account-signing-key-file, --service-account-issuer, and --api-audiences should be specified together"],
    },
    {
      name: "audiences alone",
      pairs: [["--api-audiences", "a,b"]],
      errs: ["--service-account-signing-key-file, --service-account-issuer, and --api-audiences should be specified together"],
    },
    {
      name: "nothing",
      pairs: [["--service-account-extend-token-expiration", "false"]],
      errs: ["--service-account-signing-key-file and --service-account-issuer are required flags"],
    },
  ] as { name: string; pairs: [string, string][]; errs: string[] }[])("$name", ({ pairs, errs }) => {
    expect(validateServiceAccountFlags(flags(...pairs))).toEqual(errs);
  });
});

describe("completeServiceAccountFlags", () => {
  it("reads the keys and defaults the API audiences to the issuers", () => {
    const c = completeServiceAccountFlags(
      flags(
        ["--service-account-issuer", "https://a"],
        ["--service-account-issuer", "https://b"],
        ["--service-account-signing-key-file", keyFile],
      ),
    );
    expect(c.issuers).toEqual(["https://a", "https://b"]);
    expect(c.apiAudiences).toEqual(["https://a", "https://b"]);
    expect(c.signingKey?.asymmetricKeyType).toBe("rsa");
    // Without --service-account-key-file the signing key's public half verifies.
    expect(c.publicKeys).toHaveLength(1);
    expect(c.extendExpiration).toBe(true);
  });

  it("keeps --api-audiences and reads every key file", () => {
    const ec = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
    const both = join(dir, "both.pub");
    const pem = (k: typeof rsa.publicKey): string => k.export({ type: "spki", format: "pem" }).toString();
    writeFileSync(both, pem(rsa.publicKey) + pem(ec.publicKey));
    const c = completeServiceAccountFlags(
      flags(
        ["--service-account-issuer", "https://a"],
        ["--service-account-signing-key-file", keyFile],
        ["--service-account-key-file", pubFile],
        ["--service-account-key-file", both],
        ["--api-audiences", "x,y"],
        ["--service-account-max-token-expiration", "48h"],
      ),
    );
    expect(c.apiAudiences).toEqual(["x", "y"]);
    expect(c.publicKeys.map((k) => k.asymmetricKeyType)).toEqual(["rsa", "rsa", "ec"]);
    expect(c.maxExpirationSeconds).toBe(48 * 3600);
  });

  it("refuses a file without a key", () => {
    const bad = join(dir, "bad.pem");
    writeFileSync(bad, "not a key\n");
    expect(() =>
      completeServiceAccountFlags(flags(["--service-account-issuer", "https://a"], ["--service-account-signing-key-file", bad])),
    ).toThrow(`error reading private key file ${bad}: data does not contain a valid RSA or ECDSA private key`);
  });

  it("warns when the max expiration is shorter than the extension", () => {
    const warnings: string[] = [];
    completeServiceAccountFlags(
      flags(
        ["--service-account-issuer", "https://a"],
        ["--service-account-signing-key-file", keyFile],
        ["--service-account-max-token-expiration", "1h"],
      ),
      (m) => warnings.push(m),
    );
    expect(warnings).toEqual([
      "service-account-extend-token-expiration is true, in order to correctly trigger safe transition logic, service-account-max-token-expiration must be set longer than 3607 seconds (currently 1h0m0s)",
      "service-account-extend-token-expiration is true, enabling tokens valid up to 31536000 seconds, which is longer than service-account-max-token-expiration set to 1h0m0s",
    ]);
  });
});

describe("servicenet up's service-account flags", () => {
  it("are absent unless given", () => {
    expect(parseUpOptions([]).serviceAccounts).toBeUndefined();
  });
  it("repeat, in both spellings", () => {
    const o = parseUpOptions([
      "--service-account-issuer=https://a",
      "--service-account-issuer",
      "https://b",
      `--service-account-signing-key-file=${keyFile}`,
    ]);
    expect(o.serviceAccounts?.issuers).toEqual(["https://a", "https://b"]);
  });
  it("are validated", () => {
    expect(() => parseUpOptions(["--service-account-issuer=https://a"])).toThrow(
      "--service-account-signing-key-file, --service-account-issuer, and --api-audiences should be specified together",
    );
  });
});
