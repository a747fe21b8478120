import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../../errors/index.ts";
import * as beta from "../v1beta1/index.ts";
import { IPAddressSchema, ServiceCIDRSchema, type IPAddress, type ServiceCIDR } from "./types.ts";
import {
  validateIPAddress,
  validateIPAddressUpdate,
  validateServiceCIDR,
  validateServiceCIDRStatusUpdate,
  validateServiceCIDRUpdate,
} from "./validation.ts";

const sc = (cidrs: string[] | undefined, name = "test-name"): ServiceCIDR =>
  ServiceCIDRSchema.parse({ metadata: { name, resourceVersion: "1" }, spec: cidrs === undefined ? {} : { cidrs } });

const msgs = (errs: ReturnType<typeof validateServiceCIDR>): string[] => errs.map(fieldErrorString);

describe("validateServiceCIDR (upstream TestValidateServiceCIDR)", () => {
  it.each<[string, string[] | undefined, number]>([
    ["empty-iprange", undefined, 1],
    ["three-ipranges", ["192.168.0.0/24", "fd00::/64", "10.0.0.0/16"], 1],
    ["good-iprange-ipv4", ["192.168.0.0/24"], 0],
    ["good-iprange-ipv6", ["fd00:1234::/64"], 0],
    ["good-iprange-ipv4-ipv6", ["192.168.0.0/24", "fd00:1234::/64"], 0],
    ["not-iprange-ipv4", ["asdasdasd"], 1],
    ["iponly-iprange-ipv4", ["192.168.0.1"], 1],
    ["badip-iprange-ipv4", ["192.168.0.1/24"], 1],
    ["badip-iprange-ipv6", ["fd00:1234::2/64"], 1],
    ["badip-iprange-caps-ipv6", ["FD00:1234::2/64"], 1], // newer strict IsValidCIDR stops at the first error
    ["good-iprange-ipv4-bad-ipv6", ["192.168.0.0/24", "FD00:1234::/64"], 1],
    ["good-iprange-ipv6-bad-ipv4", ["192.168.007.0/24", "fd00:1234::/64"], 1],
    ["two-ipv4", ["192.168.0.0/24", "10.0.0.0/24"], 1],
    ["slash-zero-accepted", ["0.0.0.0/0"], 0],
    ["short-ipv6-accepted", ["fd00::/48"], 0],
  ])("%s", (_name, cidrs, count) => {
    expect(validateServiceCIDR(sc(cidrs))).toHaveLength(count);
  });

  it.each<[string[] | undefined, string]>([
    [undefined, "spec.cidrs: Required value: at least one CIDR required"],
    [["192.168.0.0/24", "fd00::/64", "10.0.0.0/16"], "may only hold up to 2 values"],
    [["192.168.0.0/24", "10.0.0.0/24"], "may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64"],
    [["asdasdasd"], 'spec.cidrs[0]: Invalid value: "asdasdasd": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'],
    [["10.0.0.0/24", "FD00:1234::/64"], 'spec.cidrs[1]: Invalid value: "FD00:1234::/64": must be in canonical form ("fd00:1234::/64")'],
    [["192.168.0.1/24"], 'spec.cidrs[0]: Invalid value: "192.168.0.1/24": must not have bits set beyond the prefix length'],
  ])("%j -> %s", (cidrs, want) => {
    const got = msgs(validateServiceCIDR(sc(cidrs)));
    expect(got).toHaveLength(1);
    expect(got[0]).toContain(want);
  });

  // 1.33's validateServiceCIDRSpec checks each CIDR before the families, so both are reported.
  it.each<[string[], string[]]>([
    [
      ["10.0.0.256/24", "10.1.0.0/24"],
      [
        'spec.cidrs[0]: Invalid value: "10.0.0.256/24": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
        'spec.cidrs: Invalid value: {"cidrs":["10.0.0.256/24","10.1.0.0/24"]}: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64',
      ],
    ],
    [
      ["10.0.0.1/24", "10.1.0.0/24"],
      [
        'spec.cidrs[0]: Invalid value: "10.0.0.1/24": must not have bits set beyond the prefix length',
        "may specify no more than one IP for each IP family",
      ],
    ],
  ])("%j reports the CIDR, then the family error", (cidrs, want) => {
    const got = msgs(validateServiceCIDR(sc(cidrs)));
    expect(got).toHaveLength(want.length);
    want.forEach((w, i) => expect(got[i]).toContain(w));
  });

  it("checks the name as a DNS subdomain and forbids a namespace", () => {
    const obj = ServiceCIDRSchema.parse({ metadata: { name: "Bad_Name", namespace: "default" }, spec: { cidrs: ["10.0.0.0/24"] } });
    expect(validateServiceCIDR(obj).map((e) => `${e.field} ${e.type}`)).toEqual(["metadata.name Invalid", "metadata.namespace Forbidden"]);
    expect(msgs(validateServiceCIDR(sc(["10.0.0.0/24"], "")))).toEqual(["metadata.name: Required value: name or generateName is required"]);
  });

  // The shared meta/v1 validator checks annotations and label keys as upstream's ValidateObjectMeta does.
  it("validates annotation and label keys with upstream's qualified-name message", () => {
    const obj = ServiceCIDRSchema.parse({
      metadata: { name: "a", annotations: { "a/b/c": "x" }, labels: { "a=b": "x" } },
      spec: { cidrs: ["10.0.0.0/24"] },
    });
    const got = msgs(validateServiceCIDR(obj));
    expect(got).toHaveLength(2);
    expect(got[0]).toBe(
      "metadata.labels: Invalid value: \"a=b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    );
    expect(got[1]).toMatch(/^metadata\.annotations: Invalid value: "a\/b\/c": a qualified name must consist of/);
  });
});

describe("validateServiceCIDRUpdate", () => {
  it.each<[string, string[], string[], string[]]>([
    ["Successful update, no changes", ["192.168.0.0/24", "fd00:1234::/64"], ["192.168.0.0/24", "fd00:1234::/64"], []],
    [
      "Failed update, update spec.CIDRs single stack",
      ["192.168.0.0/24"],
      ["10.0.0.0/16"],
      ['spec.cidrs[0]: Invalid value: "10.0.0.0/16": field is immutable'],
    ],
    [
      "Failed update, update spec.CIDRs dual stack",
      ["192.168.0.0/24", "fd00:1234::/64"],
      ["10.0.0.0/16", "fd00:1234::/64"],
      ['spec.cidrs[0]: Invalid value: "10.0.0.0/16": field is immutable'],
    ],
    ["Successful update, single to dual stack (1.33+)", ["192.168.0.0/24"], ["192.168.0.0/24", "fd00:1234::/64"], []],
    [
      "Failed update, single to dual changing the primary",
      ["192.168.0.0/24"],
      ["10.0.0.0/16", "fd00:1234::/64"],
      ['spec.cidrs[0]: Invalid value: "10.0.0.0/16": field is immutable'],
    ],
    ["Failed update, dual to single", ["192.168.0.0/24", "fd00:1234::/64"], ["192.168.0.0/24"], ["field is immutable"]],
    [
      "Failed update, reorder",
      ["192.168.0.0/24", "fd00:1234::/64"],
      ["fd00:1234::/64", "192.168.0.0/24"],
      ["spec.cidrs[0]", "spec.cidrs[1]"],
    ],
    [
      "Failed update, single stack to an invalid CIDR: immutable only",
      ["192.168.0.0/24"],
      ["asdasdasd"],
      ['spec.cidrs[0]: Invalid value: "asdasdasd": field is immutable'],
    ],
    [
      "Failed update, same-family second CIDR",
      ["192.168.0.0/24"],
      ["192.168.0.0/24", "10.0.0.0/16"],
      ["may specify no more than one IP for each IP family"],
    ],
    [
      "Failed update, invalid second CIDR",
      ["192.168.0.0/24"],
      ["192.168.0.0/24", "fd00::1/64"],
      ['spec.cidrs[1]: Invalid value: "fd00::1/64": must not have bits set beyond the prefix length'],
    ],
  ])("%s", (_name, oldCIDRs, newCIDRs, want) => {
    const got = msgs(validateServiceCIDRUpdate(sc(newCIDRs), sc(oldCIDRs)));
    expect(got).toHaveLength(want.length);
    want.forEach((w, i) => expect(got[i]).toContain(w));
  });

  it("requires a resourceVersion and keeps the name immutable", () => {
    const next = ServiceCIDRSchema.parse({ metadata: { name: "other" }, spec: { cidrs: ["10.0.0.0/24"] } });
    expect(msgs(validateServiceCIDRUpdate(next, sc(["10.0.0.0/24"])))).toEqual([
      'metadata.resourceVersion: Invalid value: "": must be specified for an update',
      'metadata.name: Invalid value: "other": field is immutable',
    ]);
  });

  it("status updates check only metadata", () => {
    expect(validateServiceCIDRStatusUpdate(sc(["10.0.0.0/24"]), sc(["10.0.0.0/24"]))).toEqual([]);
    const deleting = ServiceCIDRSchema.parse({
      metadata: { name: "test-name", resourceVersion: "1", deletionTimestamp: "2024-01-01T00:00:00Z" },
    });
    const added = ServiceCIDRSchema.parse({
      metadata: {
        name: "test-name",
        resourceVersion: "2",
        deletionTimestamp: "2024-01-01T00:00:00Z",
        finalizers: ["networking.k8s.io/service-cidr-finalizer"],
      },
    });
    expect(msgs(validateServiceCIDRStatusUpdate(added, deleting))[0]).toContain(
      "no new finalizers can be added if the object is being deleted",
    );
  });
});

const goodRef = { group: "", resource: "services", name: "foo", namespace: "bar" };
const ipa = (name: string, parentRef?: object): IPAddress =>
  IPAddressSchema.parse({ metadata: { name, resourceVersion: "1" }, spec: parentRef === undefined ? {} : { parentRef } });

describe("validateIPAddress (upstream TestValidateIPAddress)", () => {
  it.each<[string, string, object | undefined, number]>([
    ["empty-ipaddress-bad-name", "test-name", goodRef, 1],
    ["empty-ipaddress-bad-name-no-parent-reference", "test-name", undefined, 2],
    ["good-ipaddress", "192.168.1.1", goodRef, 0],
    [
      "good-ipaddress-gateway",
      "192.168.1.1",
      { group: "gateway.networking.k8s.io", resource: "gateway", name: "foo", namespace: "bar" },
      0,
    ],
    ["good-ipv6address", "2001:4860:4860::8888", goodRef, 0],
    ["non-canonical-ipv6address", "2001:4860:4860:0::8888", goodRef, 1],
    ["missing-ipaddress-reference", "192.168.1.1", undefined, 1],
    ["wrong-name-ipaddress", "foo$%&", goodRef, 1],
    ["broadcast-accepted", "255.255.255.255", { group: "mygroup", resource: "myresources", namespace: "foo", name: "bar" }, 0],
    ["link-local-accepted", "fe80::42:1dff:fe84:f9e2", goodRef, 0],
    ["leading-zero", "10.01.2.3", goodRef, 1],
    ["ipv4-mapped", "::ffff:10.1.2.3", goodRef, 1],
    ["wrong-ref-ipaddress", "192.168.1.1", { group: ".cust@m.resource.com", resource: "", name: "", namespace: "bar$$$$$%@" }, 4],
  ])("%s", (_name, name, ref, count) => {
    expect(validateIPAddress(ipa(name, ref))).toHaveLength(count);
  });

  it.each<[string, object | undefined, string[]]>([
    ["2001:db8:0:0:0::1", goodRef, ['metadata.name: Invalid value: "2001:db8:0:0:0::1": must be in canonical form ("2001:db8::1")']],
    ["10.01.2.3", goodRef, ['metadata.name: Invalid value: "10.01.2.3": must not have leading 0s']],
    ["::ffff:1.2.3.4", goodRef, ['metadata.name: Invalid value: "::ffff:1.2.3.4": must not be an IPv4-mapped IPv6 address']],
    ["test-name", goodRef, ['metadata.name: Invalid value: "test-name": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']],
    ["10.0.0.1", undefined, ["spec.parentRef: Required value"]],
    [
      "10.0.0.1",
      { resource: "..", name: "a/b%c", namespace: "." },
      [
        "spec.parentRef.resource: Invalid value: \"..\": may not be '..'",
        "spec.parentRef.name: Invalid value: \"a/b%c\": may not contain '/'",
        "spec.parentRef.name: Invalid value: \"a/b%c\": may not contain '%'",
        "spec.parentRef.namespace: Invalid value: \".\": may not be '.'",
      ],
    ],
    ["10.0.0.1", { group: "", resource: "", name: "" }, ["spec.parentRef.resource: Required value", "spec.parentRef.name: Required value"]],
  ])("%s %j", (name, ref, want) => {
    expect(msgs(validateIPAddress(ipa(name, ref)))).toEqual(want);
  });
});

describe("validateIPAddressUpdate", () => {
  it.each<[string, object | undefined, object | undefined, number]>([
    ["no change", goodRef, goodRef, 0],
    ["empty group equals absent group", goodRef, { resource: "services", name: "foo", namespace: "bar" }, 0],
    ["resource changed", goodRef, { ...goodRef, resource: "gateways" }, 1],
    ["parentRef removed", goodRef, undefined, 1],
  ])("%s", (_name, oldRef, newRef, count) => {
    const errs = validateIPAddressUpdate(ipa("10.0.0.1", newRef), ipa("10.0.0.1", oldRef));
    expect(errs).toHaveLength(count);
    if (count > 0) expect(errs[0]!.detail).toBe("field is immutable");
  });

  it("allows label and annotation changes", () => {
    const next = IPAddressSchema.parse({
      metadata: { name: "10.0.0.1", resourceVersion: "2", labels: { a: "b" }, annotations: { x: "y" } },
      spec: { parentRef: goodRef },
    });
    expect(validateIPAddressUpdate(next, ipa("10.0.0.1", goodRef))).toEqual([]);
  });
});

describe("schemas", () => {
  it("v1 and v1beta1 share shape and differ in apiVersion", () => {
    const body = {
      apiVersion: "networking.k8s.io/v1beta1",
      kind: "ServiceCIDR",
      metadata: { name: "a" },
      spec: { cidrs: ["10.0.0.0/24"] },
    };
    expect(beta.ServiceCIDRSchema.parse(body).spec.cidrs).toEqual(["10.0.0.0/24"]);
    expect(ServiceCIDRSchema.safeParse(body).success).toBe(false);
    expect(beta.validateServiceCIDR(beta.ServiceCIDRSchema.parse(body))).toEqual([]);
    expect(
      IPAddressSchema.parse({
        apiVersion: "networking.k8s.io/v1",
        kind: "IPAddress",
        metadata: { name: "10.0.0.1" },
        spec: { parentRef: goodRef },
      }).spec.parentRef,
    ).toEqual(goodRef);
  });

  it("drops unknown fields (there is no parentRef.uid)", () => {
    const parsed = IPAddressSchema.parse({ metadata: { name: "10.0.0.1" }, spec: { parentRef: { ...goodRef, uid: "x" } } });
    expect(parsed.spec.parentRef).toEqual(goodRef);
  });

  it("parses status conditions", () => {
    const cond = {
      type: "Ready",
      status: "True",
      lastTransitionTime: "2024-01-01T00:00:00Z",
      reason: "",
      message: "Kubernetes Service CIDR is ready",
    };
    expect(ServiceCIDRSchema.parse({ metadata: { name: "a" }, status: { conditions: [cond] } }).status?.conditions).toEqual([cond]);
    expect(ServiceCIDRSchema.safeParse({ metadata: { name: "a" }, status: { conditions: [{ ...cond, status: "Maybe" }] } }).success).toBe(
      false,
    );
  });
});
