import { describe, expect, it } from "vitest";
import {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isValidPathSegmentName,
  isValidPortName,
  maskTrailingDash,
  nameIsDNS1035Label,
  nameIsDNSSubdomain,
} from "./name.ts";
import { isQualifiedName, isValidLabelValue } from "./labels.ts";

const label1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const label1123 =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const subdomain =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe("DNS name validators (upstream messages)", () => {
  it.each([
    ["my-name", []],
    ["a", []],
    ["1abc", [label1035]],
    ["abc-", [label1035]],
    ["ABC", [label1035]],
    ["a".repeat(64), ["must be no more than 63 characters"]],
  ])("isDNS1035Label(%j)", (v, want) => expect(isDNS1035Label(v)).toEqual(want));

  it.each([
    ["123-abc", []],
    ["a.b", ["must not contain dots"]],
    ["-a", [label1123]],
    ["a".repeat(64), ["must be no more than 63 characters"]],
  ])("isDNS1123Label(%j)", (v, want) => expect(isDNS1123Label(v)).toEqual(want));

  it.each([
    ["example.com", []],
    ["a..b", [subdomain]],
    ["Example.com", [subdomain]],
    [`${"a".repeat(250)}.com`, ["must be no more than 253 characters"]],
  ])("isDNS1123Subdomain(%j)", (v, want) => expect(isDNS1123Subdomain(v)).toEqual(want));

  it.each<[string, number]>([
    ["kubernetes", 0],
    ["a.b-c.d", 0],
    ["Bad", 1],
    ["-a", 1],
    ["a".repeat(254), 1],
    ["A".repeat(254), 2],
  ])("isDNS1123Subdomain(%j) has %d errors", (v, n) => {
    expect(isDNS1123Subdomain(v)).toHaveLength(n);
  });

  it("isDNS1123Subdomain uses upstream's message text", () => {
    expect(isDNS1123Subdomain("Bad")[0]).toBe(subdomain);
  });

  it("lets a generateName prefix end in a dash", () => {
    expect(nameIsDNSSubdomain("svc-", true)).toEqual([]);
    expect(nameIsDNSSubdomain("svc-", false)).toHaveLength(1);
  });

  it.each<[string, string[]]>([
    ["foo", []],
    [".", ["may not be '.'"]],
    ["..", ["may not be '..'"]],
    ["a/b%", ["may not contain '/'", "may not contain '%'"]],
  ])("isValidPathSegmentName(%j)", (v, want) => {
    expect(isValidPathSegmentName(v)).toEqual(want);
  });

  it("masks a trailing dash of a generateName as upstream (drops two characters)", () => {
    expect(maskTrailingDash("abc-")).toBe("aba");
    expect(maskTrailingDash("-")).toBe("-");
    expect(nameIsDNS1035Label("web-", true)).toEqual([]);
    expect(nameIsDNS1035Label("web-", false)).toEqual([label1035]);
  });

  it.each([
    ["http", []],
    ["h--p", ["must not contain consecutive hyphens"]],
    ["123", ["must contain at least one letter (a-z)"]],
    ["-http", ["must not begin or end with a hyphen"]],
    ["Http", ["must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)"]],
    ["a".repeat(16), ["must be no more than 15 characters"]],
  ])("isValidPortName(%j)", (v, want) => expect(isValidPortName(v)).toEqual(want));
});

describe("qualified names and label values", () => {
  const nameMsg =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
  it.each([
    ["app", []],
    ["example.com/MyName", []],
    ["NoUppercaseOrSpecialCharsLike=Equals", [nameMsg]],
    ["/x", ["prefix part must be non-empty"]],
    ["a/", ["name part must be non-empty", nameMsg]],
    [
      "a/b/c",
      [
        expect.stringMatching(
          /^a qualified name must consist of .* with an optional DNS subdomain prefix and '\/' \(e\.g\. 'example\.com\/MyName'\)$/,
        ),
      ],
    ],
  ])("isQualifiedName(%j)", (v, want) => expect(isQualifiedName(v)).toEqual(want));

  it.each<[string, number]>([
    ["kubernetes.io/service-name", 0],
    ["app", 0],
    ["/app", 1],
    ["a/b/c", 1],
    ["Example.com/app", 1],
    ["app-", 1],
  ])("isQualifiedName(%j) has %d errors", (v, n) => {
    expect(isQualifiedName(v)).toHaveLength(n);
  });

  it.each([
    ["", 0],
    ["my_value", 0],
    ["-bad", 1],
    ["a".repeat(64), 1],
  ])("isValidLabelValue(%j) has %d errors", (v, n) => expect(isValidLabelValue(v)).toHaveLength(n));
});
