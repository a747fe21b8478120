import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../../../errors/index.ts";
import { setDefaultsSecret, type Secret } from "../secret.ts";
import { goUnmarshalMapError } from "./go-json.ts";
import { validateSecret, validateSecretUpdate } from "./secret.ts";

const b64 = (s: string | Uint8Array): string => Buffer.from(s).toString("base64");
const bytesOf = (data: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)]));

function secret(type: string | undefined, data: Record<string, string> | undefined, meta: Partial<Secret["metadata"]> = {}): Secret {
  return { metadata: { name: "foo", namespace: "bar", ...meta }, type, data: data === undefined ? undefined : bytesOf(data) };
}

const errorsOf = (s: Secret): string[] => validateSecret(s).map(fieldErrorString);
const saName = "kubernetes.io/service-account.name";
const keyMsg =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
const saToken = "kubernetes.io/service-account-token";

// upstream TestValidateSecret's rows (pkg/apis/core/validation/validation_test.go), with 1.33's errors.
describe("TestValidateSecret", () => {
  it.each<[string, Secret, string[]]>([
    ["valid", secret(undefined, { "data-1": "bar" }), []],
    [
      "empty name",
      secret(undefined, { "data-1": "bar" }, { name: "" }),
      ["metadata.name: Required value: name or generateName is required"],
    ],
    [
      "invalid name",
      secret(undefined, { "data-1": "bar" }, { name: "NoUppercaseOrSpecialCharsLike=Equals" }),
      [
        `metadata.name: Invalid value: "NoUppercaseOrSpecialCharsLike=Equals": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    ],
    ["empty namespace", secret(undefined, { "data-1": "bar" }, { namespace: "" }), ["metadata.namespace: Required value"]],
    [
      "over max size",
      { ...secret(undefined, {}), data: { over: b64(new Uint8Array(1024 * 1024 + 1)) } },
      ["data: Too long: may not be more than 1048576 bytes"],
    ],
    ["exactly max size", { ...secret(undefined, {}), data: { a: b64(new Uint8Array(1024 * 1024 - 1)), b: b64("x") } }, []],
    ["invalid key", secret(undefined, { "data-1": "bar", "a*b": "whoops" }), [`data[a*b]: Invalid value: "a*b": ${keyMsg}`]],
    ["valid service-account-token secret", secret(saToken, { "data-1": "bar" }, { annotations: { [saName]: "foo" } }), []],
    [
      "empty service-account-token annotation",
      secret(saToken, {}, { annotations: { [saName]: "" } }),
      [`metadata.annotations[${saName}]: Required value`],
    ],
    ["missing service-account-token annotations", secret(saToken, {}), [`metadata.annotations[${saName}]: Required value`]],
    ["leading dot key", secret(undefined, { ".key": "bar" }), []],
    ["dot key", secret(undefined, { ".": "bar" }), [`data[.]: Invalid value: ".": must not be '.'`]],
    ["double dot key", secret(undefined, { "..": "bar" }), [`data[..]: Invalid value: "..": must not be '..'`]],
    // Types the switch has no rule for are accepted as they are.
    ["bootstrap token", secret("bootstrap.kubernetes.io/token", {}), []],
    ["custom type", secret("example.com/thing", {}), []],
  ])("%s", (_name, s, want) => expect(errorsOf(s)).toEqual(want));
});

const dockercfg = `{"https://index.docker.io/v1/": {"auth": "Y2x1ZWRyb29sZXIwMDAxOnBhc3N3b3Jk","email": "fake@example.com"}}`;
const redacted = "<secret contents redacted>";

// upstream TestValidateDockerConfigSecret: the key must be there and hold a JSON object.
describe("TestValidateDockerConfigSecret", () => {
  it.each<[string, string, Record<string, string>, string[]]>([
    ["valid dockercfg", "kubernetes.io/dockercfg", { ".dockercfg": dockercfg }, []],
    ["missing dockercfg", "kubernetes.io/dockercfg", {}, ["data[.dockercfg]: Required value"]],
    [
      "empty dockercfg",
      "kubernetes.io/dockercfg",
      { ".dockercfg": "" },
      [`data[.dockercfg]: Invalid value: "${redacted}": unexpected end of JSON input`],
    ],
    [
      "invalid dockercfg",
      "kubernetes.io/dockercfg",
      { ".dockercfg": "bad" },
      [`data[.dockercfg]: Invalid value: "${redacted}": invalid character 'b' looking for beginning of value`],
    ],
    ["valid config.json", "kubernetes.io/dockerconfigjson", { ".dockerconfigjson": `{"auths":${dockercfg}}` }, []],
    ["missing config.json", "kubernetes.io/dockerconfigjson", {}, ["data[.dockerconfigjson]: Required value"]],
    [
      "empty config.json",
      "kubernetes.io/dockerconfigjson",
      { ".dockerconfigjson": "" },
      [`data[.dockerconfigjson]: Invalid value: "${redacted}": unexpected end of JSON input`],
    ],
    [
      "invalid config.json",
      "kubernetes.io/dockerconfigjson",
      { ".dockerconfigjson": "bad" },
      [`data[.dockerconfigjson]: Invalid value: "${redacted}": invalid character 'b' looking for beginning of value`],
    ],
    [
      "config.json not an object",
      "kubernetes.io/dockerconfigjson",
      { ".dockerconfigjson": "[]" },
      [`data[.dockerconfigjson]: Invalid value: "${redacted}": json: cannot unmarshal array into Go value of type map[string]interface {}`],
    ],
    ["config.json null", "kubernetes.io/dockerconfigjson", { ".dockerconfigjson": "null" }, []],
  ])("%s", (_name, type, data, want) => expect(errorsOf(secret(type, data))).toEqual(want));
});

describe("TestValidateBasicAuthSecret", () => {
  it.each<[string, Record<string, string>, string[]]>([
    ["valid", { username: "username", password: "password" }, []],
    ["username only, empty", { username: "" }, []],
    ["missing username and password", {}, ["data[username]: Required value", "data[password]: Required value"]],
  ])("%s", (_name, data, want) => expect(errorsOf(secret("kubernetes.io/basic-auth", data))).toEqual(want));
});

describe("TestValidateSSHAuthSecret", () => {
  it.each<[string, Record<string, string>, string[]]>([
    ["valid", { "ssh-privatekey": "foo-bar-baz" }, []],
    ["missing private key", {}, ["data[ssh-privatekey]: Required value"]],
    ["empty private key", { "ssh-privatekey": "" }, ["data[ssh-privatekey]: Required value"]],
  ])("%s", (_name, data, want) => expect(errorsOf(secret("kubernetes.io/ssh-auth", data))).toEqual(want));
});

describe("TestValidateTLSSecret", () => {
  it.each<[string, Record<string, string>, string[]]>([
    ["empty certificate chain", { "tls.crt": "public key", "tls.key": "private key" }, []],
    ["missing private key", { "tls.crt": "public key" }, ["data[tls.key]: Required value"]],
    ["missing both", {}, ["data[tls.crt]: Required value", "data[tls.key]: Required value"]],
  ])("%s", (_name, data, want) => expect(errorsOf(secret("kubernetes.io/tls", data))).toEqual(want));
});

const immutable = "field is immutable when `immutable` is set";
const versioned = (s: Partial<Secret>): Secret => ({ ...secret("Opaque", { a: "1" }, { resourceVersion: "1" }), ...s });

// upstream TestValidateSecretUpdate's rows and ValidateSecretUpdate's type and immutable rules.
describe("TestValidateSecretUpdate", () => {
  it.each<[string, Secret, Secret, string[]]>([
    ["valid", versioned({}), versioned({}), []],
    [
      "missing resourceVersion",
      { ...versioned({}), metadata: { name: "foo", namespace: "bar" } },
      versioned({}),
      ['metadata.resourceVersion: Invalid value: "": must be specified for an update'],
    ],
    [
      "type changed",
      versioned({ type: "kubernetes.io/tls" }),
      versioned({}),
      ['type: Invalid value: "kubernetes.io/tls": field is immutable', "data[tls.crt]: Required value", "data[tls.key]: Required value"],
    ],
    ["immutable unchanged", versioned({ immutable: true }), versioned({ immutable: true }), []],
    ["mutable may become immutable", versioned({ immutable: true, data: { b: b64("2") } }), versioned({}), []],
    ["immutable unset", versioned({}), versioned({ immutable: true }), [`immutable: Forbidden: ${immutable}`]],
    [
      "data changed",
      versioned({ immutable: true, data: { a: b64("2") } }),
      versioned({ immutable: true }),
      [`data: Forbidden: ${immutable}`],
    ],
    ["data removed", versioned({ immutable: true, data: undefined }), versioned({ immutable: true }), [`data: Forbidden: ${immutable}`]],
  ])("%s", (_name, s, old, want) => expect(validateSecretUpdate(s, old).map(fieldErrorString)).toEqual(want));
});

describe("setDefaultsSecret", () => {
  it("folds stringData into data as base64, overwriting, and defaults type to Opaque", () => {
    const s: Secret = { metadata: {}, data: { a: b64("old"), b: b64("keep") }, stringData: { a: "new", c: "é" } };
    expect(setDefaultsSecret(s)).toEqual({ metadata: {}, data: { a: b64("new"), b: b64("keep"), c: b64("é") }, type: "Opaque" });
  });
  it("keeps a set type and leaves data absent without stringData", () => {
    expect(setDefaultsSecret({ metadata: {}, type: "kubernetes.io/tls", stringData: {} })).toEqual({
      metadata: {},
      type: "kubernetes.io/tls",
    });
  });
});

// encoding/json's errors for json.Unmarshal into a map[string]interface{} (scanner.go, decode.go).
describe("goUnmarshalMapError", () => {
  it.each<[string, string | undefined]>([
    ["{}", undefined],
    [' {"a": [1, -2.5e+3, true, false, null, "x\\u00e9\\n"]} ', undefined],
    ["null", undefined],
    ["", "unexpected end of JSON input"],
    ["{", "unexpected end of JSON input"],
    ['{"a":1', "unexpected end of JSON input"],
    ["x", "invalid character 'x' looking for beginning of value"],
    ["nope", "invalid character 'o' in literal null (expecting 'u')"],
    ["tru", "unexpected end of JSON input"],
    ["{a}", "invalid character 'a' looking for beginning of object key string"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b"}', `invalid character '"' after object key:value pair`],
    ['{"a":[1 2]}', "invalid character '2' after array element"],
    ['{"a":"\t"}', "invalid character '\\t' in string literal"],
    ['{"a":"\\q"}', "invalid character 'q' in string escape code"],
    ['{"a":"\\u12g4"}', "invalid character 'g' in \\u hexadecimal character escape"],
    ['{"a":-x}', "invalid character 'x' in numeric literal"],
    ['{"a":1.}', "invalid character '}' after decimal point in numeric literal"],
    ['{"a":1e}', "invalid character '}' in exponent of numeric literal"],
    ['{"a":01}', "invalid character '1' after object key:value pair"],
    ["{} {}", "invalid character '{' after top-level value"],
    ["{'a':1}", "invalid character '\\'' looking for beginning of object key string"],
    ['"s"', "json: cannot unmarshal string into Go value of type map[string]interface {}"],
    ["1", "json: cannot unmarshal number into Go value of type map[string]interface {}"],
    ["true", "json: cannot unmarshal bool into Go value of type map[string]interface {}"],
  ])("%j", (input, want) => expect(goUnmarshalMapError(new TextEncoder().encode(input))).toBe(want));
});
