import { describe, expect, it } from "vitest";
import { semanticEqual } from "./immutable.ts";
import { isDNS1123Subdomain, isQualifiedName, isValidPathSegmentName, nameIsDNSSubdomain } from "./name.ts";

describe("local name validators", () => {
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

  it("uses upstream's message text", () => {
    expect(isDNS1123Subdomain("Bad")[0]).toBe(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    );
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
});

describe("semanticEqual", () => {
  it.each<[unknown, unknown, boolean]>([
    [undefined, [], true],
    [["a"], ["a"], true],
    [["a"], ["b"], false],
    [{ group: "", resource: "services" }, { resource: "services" }, true],
    [{ resource: "services" }, { resource: "pods" }, false],
    [undefined, { resource: "services" }, false],
    [{ a: { b: 1 } }, { a: { b: 1 } }, true],
  ])("%j vs %j -> %s", (a, b, want) => {
    expect(semanticEqual(a, b)).toBe(want);
  });
});
