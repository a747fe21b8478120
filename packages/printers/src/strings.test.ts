/** The Go and apimachinery string helpers (labels.FormatLabels, net.JoinHostPort, sort.Strings). */
import { describe, expect, it } from "vitest";
import { compareGo, formatLabels, joinHostPort } from "./strings.ts";

describe("string helpers", () => {
  it("formatLabels sorts the k=v strings as Go does", () => {
    expect(formatLabels({ app: "x", "app.kubernetes.io/name": "y" })).toBe("app.kubernetes.io/name=y,app=x");
    expect(formatLabels({})).toBe("<none>");
  });
  it("joinHostPort brackets IPv6", () => {
    expect(joinHostPort("fd00::1", 80)).toBe("[fd00::1]:80");
    expect(joinHostPort("10.0.0.1", 80)).toBe("10.0.0.1:80");
  });
  it("compareGo orders by UTF-8 bytes like Go, not UTF-16 units", () => {
    expect(["\u{1F600}", "\uFF5E"].sort(compareGo)).toEqual(["\uFF5E", "\u{1F600}"]);
  });
});
