/**
 * INTERIM test fixture: ValidateServiceClusterIPsRelatedFields (reference
 * dual-stack-services.md §4.2), used only until @servicenet/api exports its
 * own. Production code never imports this file; the Allocators take the
 * validator as a constructor option.
 */
import { field, isValidIP, path, type FieldError } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { familyOf } from "./helpers.ts";
import type { ServiceView } from "./service-view.ts";

export function validateClusterIPs(svc: ServiceView): FieldError[] {
  const spec = svc.spec ?? {};
  if (spec.type === "ExternalName") return [];
  const el: FieldError[] = [];
  const ips = spec.clusterIPs ?? [];
  const clusterIP = spec.clusterIP ?? "";
  if (clusterIP !== "") {
    if (ips.length === 0) el.push(field.required("spec.clusterIPs"));
    else if (ips[0] !== clusterIP) el.push(field.invalid("spec.clusterIPs", ips, "first value must match `clusterIP`"));
  } else if (ips.length > 0) {
    el.push(field.invalid("spec.clusterIPs", ips, "must be empty when `clusterIP` is not specified"));
  }
  const seen = new Set<string>();
  (spec.ipFamilies ?? []).forEach((f, i) => {
    if (f !== "IPv4" && f !== "IPv6") el.push(field.notSupported(path("spec", "ipFamilies", i), f, ["IPv4", "IPv6"]));
    else if (seen.has(f)) el.push(field.duplicate(path("spec", "ipFamilies", i), f));
    seen.add(f);
  });
  const pol = spec.ipFamilyPolicy;
  if (pol !== undefined && !["SingleStack", "PreferDualStack", "RequireDualStack"].includes(pol)) {
    el.push(field.notSupported("spec.ipFamilyPolicy", pol, ["PreferDualStack", "RequireDualStack", "SingleStack"]));
  }
  let bad = false;
  ips.forEach((ip, i) => {
    if (i === 0 && ip === "None") {
      if (ips.length > 1) el.push(field.invalid("spec.clusterIPs", ips, "'None' must be the first and only value"));
      return;
    }
    const errs = isValidIP(path("spec", "clusterIPs", i), ip);
    if (errs.length > 0) bad = true;
    el.push(...errs);
  });
  if (ips.length > 2) el.push(field.invalid("spec.clusterIPs", ips, "may only hold up to 2 values"));
  if (bad) return el;
  if (ips.length > 1 && familyOf(ips[0]!) === familyOf(ips[1]!)) {
    el.push(field.invalid("spec.clusterIPs", ips, "may specify no more than one IP for each IP family"));
  }
  const headless = ips.length === 1 && ips[0] === "None";
  if (!headless && ips.length > 0) {
    (spec.ipFamilies ?? []).forEach((f, i) => {
      if (i >= ips.length) return;
      if (f === "IPv4" && familyOf(ips[i]!) !== "IPv4") el.push(field.invalid(path("spec", "clusterIPs", i), ips[i], "expected an IPv4 value as indicated by `ipFamilies[" + i + "]`"));
      if (f === "IPv6" && familyOf(ips[i]!) !== "IPv6") el.push(field.invalid(path("spec", "clusterIPs", i), ips[i], "expected an IPv6 value as indicated by `ipFamilies[" + i + "]`"));
    });
  }
  return el;
}

describe("interim ValidateServiceClusterIPsRelatedFields fixture", () => {
  it.each([
    [{ clusterIP: "10.0.0.1", clusterIPs: ["10.0.0.1"], ipFamilies: ["IPv6"] }, "expected an IPv6 value"],
    [{ clusterIP: "10.0.0.1", clusterIPs: ["10.0.0.1", "10.0.0.2"] }, "no more than one IP for each IP family"],
    [{ clusterIPs: [""] }, "must be empty when"],
    [{ ipFamilies: ["IPv4", "IPv4"] }, "Duplicate"],
  ])("%j -> %s", (spec, want) => {
    const errs = validateClusterIPs({ metadata: {}, spec });
    expect(errs.map((e) => `${e.type} ${e.detail}`).join("; ")).toMatch(want === "Duplicate" ? /Duplicate/ : new RegExp(want));
  });
});
