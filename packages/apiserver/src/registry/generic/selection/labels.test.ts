import { describe, expect, it } from "vitest";
import { matchesLabels, parseLabelSelector } from "./labels.ts";
import { matchesFields, parseFieldSelector } from "./fields.ts";

const labels = { app: "web", tier: "front", n: "5" };

describe("label selectors (apimachinery labels.Parse)", () => {
  it.each([
    ["", true],
    ["app=web", true],
    ["app==web", true],
    ["app!=web", false],
    ["app=db", false],
    ["app in (web,db)", true],
    ["app in (db)", false],
    ["app notin (db)", true],
    ["app notin (web)", false],
    ["missing notin (x)", true],
    ["app", true],
    ["!app", false],
    ["!missing", true],
    ["app=web,tier=front", true],
    ["app=web,tier=back", false],
    ["n>4", true],
    ["n<4", false],
    ["missing!=x", true],
    [" app = web , tier in ( front ) ", true],
  ])("%j matches: %s", (sel, want) => {
    expect(matchesLabels(parseLabelSelector(sel), labels)).toBe(want);
  });

  it.each(["app=web,", "app in web", "app in (web", "=web", "app=a b", "n>x", "bad key!=x"])("rejects %j", (sel) => {
    expect(() => parseLabelSelector(sel)).toThrowError();
  });
});

describe("field selectors", () => {
  const fields = { "metadata.name": "web", "metadata.namespace": "default" };
  it.each([
    ["metadata.name=web", true],
    ["metadata.name==web", true],
    ["metadata.name!=web", false],
    ["metadata.name=web,metadata.namespace=default", true],
    ["metadata.namespace=kube-system", false],
    ["metadata.name=", false],
  ])("%j matches: %s", (sel, want) => {
    expect(matchesFields(parseFieldSelector(sel), fields)).toBe(want);
  });

  it("rejects a requirement without an operator", () => {
    expect(() => parseFieldSelector("metadata.name")).toThrowError(/invalid selector/);
  });
});
