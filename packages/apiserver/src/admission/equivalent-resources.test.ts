/**
 * The equivalent resources of the served table (k8s.io/apimachinery/pkg/runtime/mapper_test.go
 * TestResourceMapper, over this server's resources): versions of one storage are equivalent,
 * subresources have their own kinds, and objects convert between equivalent versions.
 */
import { describe, expect, it } from "vitest";
import { servableResources } from "../server/resources.ts";
import type { GroupVersionResource } from "./attributes.ts";
import { newEquivalentResourceMapper } from "./equivalent-resources.ts";

const gvr = (group: string, version: string, resource: string): GroupVersionResource => ({ group, version, resource });
const mapper = newEquivalentResourceMapper(() => servableResources);

describe("TestResourceMapper", () => {
  it.each([
    {
      name: "every served version of one storage",
      resource: gvr("networking.k8s.io", "v1", "servicecidrs"),
      subresource: "",
      want: [
        gvr("networking.k8s.io", "v1", "servicecidrs"),
        gvr("networking.k8s.io", "v1beta1", "servicecidrs"),
        gvr("networking.k8s.io", "v1alpha1", "servicecidrs"),
      ],
    },
    {
      name: "core and events.k8s.io Events share their storage",
      resource: gvr("events.k8s.io", "v1", "events"),
      subresource: "",
      want: [gvr("", "v1", "events"), gvr("events.k8s.io", "v1", "events")],
    },
    { name: "a resource of one version only", resource: gvr("", "v1", "services"), subresource: "", want: [gvr("", "v1", "services")] },
    {
      name: "only the versions serving the subresource",
      resource: gvr("networking.k8s.io", "v1", "ipaddresses"),
      subresource: "status",
      want: [],
    },
    { name: "an unknown resource", resource: gvr("example.com", "v1", "things"), subresource: "", want: [] },
  ])("EquivalentResourcesFor: $name", ({ resource, subresource, want }) => {
    expect(mapper.equivalentResourcesFor(resource, subresource)).toEqual(want);
  });

  it.each([
    { resource: gvr("apps", "v1", "deployments"), subresource: "", want: { group: "apps", version: "v1", kind: "Deployment" } },
    { resource: gvr("apps", "v1", "deployments"), subresource: "scale", want: { group: "autoscaling", version: "v1", kind: "Scale" } },
    { resource: gvr("apps", "v1", "replicasets"), subresource: "status", want: { group: "apps", version: "v1", kind: "ReplicaSet" } },
    { resource: gvr("", "v1", "services"), subresource: "scale", want: undefined },
  ])("KindFor $resource.resource/$subresource", ({ resource, subresource, want }) => {
    expect(mapper.kindFor(resource, subresource)).toEqual(want);
  });
});

describe("ConvertToGVK", () => {
  it("rewrites apiVersion between versions of one shape, and copies", () => {
    const cidr = { apiVersion: "networking.k8s.io/v1", kind: "ServiceCIDR", metadata: { name: "c" }, spec: { cidrs: ["10.0.0.0/24"] } };
    const out = mapper.convert(cidr, gvr("networking.k8s.io", "v1", "servicecidrs"), gvr("networking.k8s.io", "v1beta1", "servicecidrs"));
    expect(out).toEqual({ ...cidr, apiVersion: "networking.k8s.io/v1beta1" });
    (out as unknown as { spec: { cidrs: string[] } }).spec.cidrs.push("x");
    expect(cidr.spec.cidrs).toEqual(["10.0.0.0/24"]);
  });

  it("converts core/v1 Events to events.k8s.io/v1 and back", () => {
    const core = {
      apiVersion: "v1",
      kind: "Event",
      metadata: { name: "e", namespace: "default" },
      involvedObject: { kind: "Service", name: "s" },
      reason: "Created",
      message: "made it",
      type: "Normal",
      count: 2,
    };
    const v1 = mapper.convert(core, gvr("", "v1", "events"), gvr("events.k8s.io", "v1", "events"));
    expect(v1).toMatchObject({ apiVersion: "events.k8s.io/v1", regarding: { name: "s" }, note: "made it", deprecatedCount: 2 });
    expect(mapper.convert(v1, gvr("events.k8s.io", "v1", "events"), gvr("", "v1", "events"))).toEqual(core);
  });
});

describe("rebuilding the registry", () => {
  // A custom resource in two versions of one storage, as the CRD handler serves them.
  const base = servableResources.find((d) => d.group === "networking.k8s.io" && d.resource === "servicecidrs" && d.version === "v1")!;
  const crd = ["v1", "v2"].map((version) => ({
    ...base,
    group: "example.com",
    version,
    resource: "widgets",
    kind: "Widget",
    storagePath: "example.com/widgets",
  }));
  const source = () => {
    const s = { generation: 0, reads: 0, defs: servableResources };
    const m = newEquivalentResourceMapper(
      () => (s.reads++, s.defs),
      () => s.generation,
    );
    return { s, m };
  };
  const widgets = gvr("example.com", "v1", "widgets");

  it("reads the served resources once while their generation stays", () => {
    const { s, m } = source();
    for (let i = 0; i < 3; i++) m.equivalentResourcesFor(gvr("", "v1", "services"), "");
    m.kindFor(gvr("apps", "v1", "deployments"), "scale");
    expect(s.reads).toBe(1);
  });

  it("rebuilds after a CRD is added (the generation moves), and only then", () => {
    const { s, m } = source();
    expect(m.equivalentResourcesFor(widgets, "")).toEqual([]);
    s.defs = [...servableResources, ...crd];
    // Same generation: the registry is the one built before the CRD came.
    expect(m.equivalentResourcesFor(widgets, "")).toEqual([]);
    s.generation++;
    expect(m.equivalentResourcesFor(widgets, "")).toEqual([widgets, gvr("example.com", "v2", "widgets")]);
    expect(m.kindFor(widgets, "")).toEqual({ group: "example.com", version: "v1", kind: "Widget" });
    expect(s.reads).toBe(2);
  });
});
