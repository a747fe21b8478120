import { describe, expect, it } from "vitest";
import type { KubeObject } from "../storage/index.ts";
import { goFieldOrder } from "./go-order.ts";
import { present, renderList } from "./present.ts";
import { findResource } from "./resources.ts";

/**
 * Objects as kube-apiserver 1.33 writes them (encoding/json over the k8s.io/api Go structs:
 * fields in declaration order, map keys sorted, empty omitempty fields left out).
 */
const fixtures: [string, string, string, string][] = [
  [
    "",
    "v1",
    "services",
    '{"kind":"Service","apiVersion":"v1","metadata":{"name":"web","namespace":"default","uid":"3f1c","resourceVersion":"53","creationTimestamp":"2026-12-05T08:30:18Z","labels":{"app":"web","tier":"a"},"annotations":{"a":"1","b":"2"},"managedFields":[{"manager":"kubectl-create","operation":"Update","apiVersion":"v1","time":"2026-12-05T08:30:18Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:type":{},"f:ports":{}}}}]},"spec":{"ports":[{"name":"http","protocol":"TCP","port":80,"targetPort":8080,"nodePort":30080}],"selector":{"app":"web"},"clusterIP":"10.96.0.10","clusterIPs":["10.96.0.10","fd00::a"],"type":"NodePort","sessionAffinity":"None","externalTrafficPolicy":"Cluster","ipFamilies":["IPv4","IPv6"],"ipFamilyPolicy":"PreferDualStack","internalTrafficPolicy":"Cluster"},"status":{"loadBalancer":{}}}',
  ],
  [
    "",
    "v1",
    "endpoints",
    '{"kind":"Endpoints","apiVersion":"v1","metadata":{"name":"web","namespace":"default","uid":"9a","resourceVersion":"60","creationTimestamp":"2026-12-05T08:30:18Z","labels":{"app":"web"}},"subsets":[{"addresses":[{"ip":"10.244.1.5","nodeName":"n1","targetRef":{"kind":"Pod","namespace":"default","name":"web-1","uid":"p1"}}],"notReadyAddresses":[{"ip":"10.244.2.7"}],"ports":[{"name":"http","port":8080,"protocol":"TCP"}]}]}',
  ],
  [
    "discovery.k8s.io",
    "v1",
    "endpointslices",
    '{"kind":"EndpointSlice","apiVersion":"discovery.k8s.io/v1","metadata":{"name":"web-x7k","generateName":"web-","namespace":"default","uid":"e1","resourceVersion":"61","generation":1,"creationTimestamp":"2026-12-05T08:30:18Z","labels":{"endpointslice.kubernetes.io/managed-by":"endpointslice-controller.k8s.io","kubernetes.io/service-name":"web"},"ownerReferences":[{"apiVersion":"v1","kind":"Service","name":"web","uid":"3f1c","controller":true,"blockOwnerDeletion":true}]},"addressType":"IPv4","endpoints":[{"addresses":["10.244.1.5"],"conditions":{"ready":true,"serving":true,"terminating":false},"targetRef":{"kind":"Pod","namespace":"default","name":"web-1","uid":"p1"},"nodeName":"n1","zone":"z1"}],"ports":[{"name":"http","protocol":"TCP","port":8080}]}',
  ],
  [
    "networking.k8s.io",
    "v1",
    "servicecidrs",
    '{"kind":"ServiceCIDR","apiVersion":"networking.k8s.io/v1","metadata":{"name":"kubernetes","uid":"c1","resourceVersion":"42","creationTimestamp":"2026-12-05T08:30:11Z","finalizers":["networking.k8s.io/service-cidr-finalizer"]},"spec":{"cidrs":["10.96.0.0/16","fd00:10:96::/112"]},"status":{"conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-12-05T08:30:11Z","reason":"","message":"Kubernetes Service CIDR is ready"}]}}',
  ],
  [
    "networking.k8s.io",
    "v1",
    "ipaddresses",
    '{"kind":"IPAddress","apiVersion":"networking.k8s.io/v1","metadata":{"name":"10.96.0.1","uid":"i1","resourceVersion":"45","creationTimestamp":"2026-12-05T08:30:11Z","labels":{"ipaddress.kubernetes.io/ip-family":"IPv4","ipaddress.kubernetes.io/managed-by":"ipallocator.k8s.io"}},"spec":{"parentRef":{"resource":"services","namespace":"default","name":"kubernetes"}}}',
  ],
  [
    "",
    "v1",
    "namespaces",
    '{"kind":"Namespace","apiVersion":"v1","metadata":{"name":"team-a","uid":"n1","resourceVersion":"7","creationTimestamp":"2026-12-05T08:30:11Z","labels":{"kubernetes.io/metadata.name":"team-a"}},"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Active"}}',
  ],
];

/** The same object with every object's keys reversed, as a store or patch may leave them. */
function scrambled(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(scrambled);
  if (typeof v !== "object" || v === null) return v;
  return Object.fromEntries(
    Object.entries(v)
      .reverse()
      .map(([k, x]) => [k, k === "fieldsV1" ? x : scrambled(x)]),
  );
}

describe("JSON field order as kube-apiserver writes it", () => {
  it.each(fixtures)("%s/%s %s", (group, version, resource, json) => {
    const def = findResource(group, version, resource)!;
    const obj = scrambled(JSON.parse(json)) as KubeObject;
    expect(JSON.stringify(obj)).not.toBe(json);
    expect(JSON.stringify(present(def, obj))).toBe(json);
  });

  it("writes a list as TypeMeta, ListMeta, items", () => {
    const def = findResource("", "v1", "services")!;
    const item = JSON.parse(fixtures[0]![3]) as KubeObject;
    const list = renderList(def, { items: [scrambled(item) as KubeObject], resourceVersion: "70" }, "json", new URLSearchParams());
    expect(JSON.stringify(list)).toBe(
      `{"kind":"ServiceList","apiVersion":"v1","metadata":{"resourceVersion":"70"},"items":[${fixtures[0]![3]}]}`,
    );
  });

  it("keeps fields the schema does not know after the known ones, and opaque content as sent", () => {
    const out = goFieldOrder(undefined, { spec: { b: 1, a: 2 }, apiVersion: "coordination.k8s.io/v1", kind: "Lease" });
    expect(JSON.stringify(out)).toBe('{"kind":"Lease","apiVersion":"coordination.k8s.io/v1","spec":{"b":1,"a":2}}');
  });
});
