/** upstream pkg/controller/endpointslicemirroring/utils_test.go, plus the helpers it leaves to the reconciler tests. */
import { describe, expect, it } from "vitest";
import type { Endpoints } from "@servicenet/api";
import { addressToEndpoint, getEndpointSlicePrefix, hasLeaderElection, newEndpointSlice, skipMirror } from "./utils.ts";
import { shouldMirror } from "./endpointslicemirroring-controller.ts";

describe("TestNewEndpointSlice", () => {
  it("copies the labels, sets service-name and managed-by, owns the slice by the Endpoints, and leaves the Endpoints alone", () => {
    const endpoints: Endpoints = {
      metadata: { name: "foo", namespace: "test", uid: "u-1", labels: { foo: "bar" } },
      subsets: [{ ports: [{ port: 80 }] }],
    };
    const ports = [{ name: "foo", protocol: "TCP" }];
    expect(newEndpointSlice(endpoints, ports, "IPv4", "")).toEqual({
      apiVersion: "discovery.k8s.io/v1",
      kind: "EndpointSlice",
      metadata: {
        labels: {
          foo: "bar",
          "kubernetes.io/service-name": "foo",
          "endpointslice.kubernetes.io/managed-by": "endpointslicemirroring-controller.k8s.io",
        },
        generateName: "foo-",
        ownerReferences: [{ apiVersion: "v1", kind: "Endpoints", name: "foo", uid: "u-1", controller: true, blockOwnerDeletion: true }],
        namespace: "test",
      },
      ports,
      addressType: "IPv4",
      endpoints: [],
    });
    expect(endpoints.metadata?.labels).toEqual({ foo: "bar" });
  });

  it("overrides service-name and managed-by labels the Endpoints carry, and keeps a given name", () => {
    const slice = newEndpointSlice(
      {
        metadata: {
          name: "foo",
          namespace: "test",
          labels: { "kubernetes.io/service-name": "other", "endpointslice.kubernetes.io/managed-by": "me" },
          annotations: {
            a: "1",
            "endpoints.kubernetes.io/last-change-trigger-time": "t",
            "kubectl.kubernetes.io/last-applied-configuration": "{}",
          },
        },
      },
      [],
      "IPv6",
      "foo-abc",
    );
    expect(slice.metadata.name).toBe("foo-abc");
    expect(slice.metadata.generateName).toBeUndefined();
    expect(slice.metadata.labels).toEqual({
      "kubernetes.io/service-name": "foo",
      "endpointslice.kubernetes.io/managed-by": "endpointslicemirroring-controller.k8s.io",
    });
    expect(slice.metadata.annotations).toEqual({ a: "1" });
  });
});

describe("addressToEndpoint", () => {
  it.each([
    ["10.0.0.1", "IPv4", "10.0.0.1"],
    ["2001:db8:0:0:0:0:0:1", "IPv6", "2001:db8::1"],
    ["::ffff:10.0.0.1", "IPv4", "10.0.0.1"],
    ["010.000.000.001", "IPv4", "10.0.0.1"],
  ])("%s is an %s endpoint %s (parsed leniently and re-formatted)", (ip, type, formatted) => {
    expect(addressToEndpoint({ ip }, true)).toEqual({
      endpoint: { addresses: [formatted], conditions: { ready: true } },
      addressType: type,
    });
  });
  it("returns null for no IP", () => {
    expect(addressToEndpoint({ ip: "this-is-not-an-ip" }, true)).toBeNull();
  });
});

describe("getEndpointSlicePrefix / shouldMirror", () => {
  it("uses <name>- when that is a valid prefix", () => {
    expect(getEndpointSlicePrefix("svc")).toBe("svc-");
    expect(getEndpointSlicePrefix("a".repeat(253))).toBe("a".repeat(253));
  });
  it("skips skip-mirror labelled Endpoints and leader-election locks", () => {
    expect(skipMirror({ "endpointslice.kubernetes.io/skip-mirror": "true" })).toBe(true);
    expect(skipMirror({ "endpointslice.kubernetes.io/skip-mirror": "false" })).toBe(false);
    expect(hasLeaderElection({ "control-plane.alpha.kubernetes.io/leader": "{}" })).toBe(true);
    expect(shouldMirror({ metadata: { name: "a" } })).toBe(true);
    expect(shouldMirror({ metadata: { name: "a", labels: { "endpointslice.kubernetes.io/skip-mirror": "true" } } })).toBe(false);
    expect(shouldMirror({ metadata: { name: "a", annotations: { "control-plane.alpha.kubernetes.io/leader": "" } } })).toBe(false);
    expect(shouldMirror(undefined)).toBe(false);
  });
});
