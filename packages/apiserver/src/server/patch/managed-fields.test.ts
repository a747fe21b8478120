/**
 * The create fast path (createdFieldsV1) and the reworked set-based path of
 * updateManagedFields against each other and against an oracle: the
 * original string-key implementation, kept verbatim below. Every output is
 * compared as JSON text, so key order counts.
 */
import { describe, expect, it } from "vitest";
import { createdFieldsV1 } from "./fieldpath.ts";
import { isStringMap, markStringMap } from "../../util/json/string-maps.ts";
import { fromFieldsV1, normalizeFieldsV1, toFieldsV1 } from "./fieldpath-serialize.ts";
import { deepEqual, isObject, type JSONObject, type JSONValue } from "./json-value.ts";
import { compareObjects, formatTime, managerId, updateManagedFields, updateManagedFieldsGeneral } from "./managed-fields.ts";
import { lookupFieldMeta } from "./patch-meta.ts";

// ---- Oracle: fieldpath.ts and managed-fields.ts before the rework (JSON path keys throughout). ----
const oracle = (() => {
  const pathKey = (p: readonly string[]): string => JSON.stringify(p);
  const keyPath = (k: string): string[] => JSON.parse(k) as string[];
  const stripped = new Set(
    [
      ["apiVersion"],
      ["kind"],
      ["metadata"],
      ...["name", "namespace", "creationTimestamp", "selfLink", "uid", "clusterName", "generation", "managedFields", "resourceVersion"].map(
        (f) => ["metadata", f],
      ),
    ].map((p) => pathKey(p.map((f) => `f:${f}`))),
  );
  function resetFilter(subresource: string | undefined): (key: string) => boolean {
    const prefix = subresource === "status" ? '["f:spec"' : '["f:status"';
    return (key) => !(key === `${prefix}]` || key.startsWith(`${prefix},`));
  }
  function itemElement(kind: string, names: readonly string[], item: JSONValue, index: number): string {
    const meta = lookupFieldMeta(kind, names);
    if (meta?.listType === "set") return `v:${JSON.stringify(item)}`;
    if (meta?.listType === "map" && isObject(item)) {
      const keys = [...(meta.listMapKeys ?? [])].sort();
      const o: JSONObject = {};
      for (const k of keys) {
        const v = item[k] ?? meta.keyDefaults?.[k];
        if (v !== undefined) o[k] = v;
      }
      return `k:${JSON.stringify(o)}`;
    }
    return `i:${index}`;
  }
  function walkFields(kind: string, obj: JSONValue, visit: (path: string[], value: JSONValue, member: boolean) => void): void {
    const walk = (v: JSONValue, path: string[], names: string[]): void => {
      const meta = lookupFieldMeta(kind, names);
      if (isObject(v)) {
        const entries = Object.entries(v);
        const leaf = meta?.mapType === "atomic" || (entries.length === 0 && path.length > 0);
        if (path.length > 0) visit(path, v, leaf);
        if (leaf) return;
        for (const [k, c] of entries) walk(c, [...path, `f:${k}`], [...names, k]);
      } else if (Array.isArray(v)) {
        const atomic = (meta?.listType ?? "atomic") === "atomic";
        visit(path, v, atomic);
        if (atomic) return;
        v.forEach((item, i) => {
          const p = [...path, itemElement(kind, names, item, i)];
          if (meta?.listType === "set" || !isObject(item)) visit(p, item, true);
          else walk(item, p, names);
        });
      } else {
        visit(path, v, true);
      }
    };
    walk(obj, [], []);
  }
  const isItem = (p: string[]): boolean => /^[kvi]:/.test(p[p.length - 1] ?? "");
  function nodeValues(kind: string, obj: JSONValue | undefined): Map<string, { value: JSONValue; member: boolean; leaf: boolean }> {
    const out = new Map<string, { value: JSONValue; member: boolean; leaf: boolean }>();
    if (obj === undefined) return out;
    walkFields(kind, obj, (p, value, leaf) => {
      const k = pathKey(p);
      if (!stripped.has(k)) out.set(k, { value, member: leaf || isItem(p), leaf });
    });
    return out;
  }
  function encode(set: Set<string>): JSONObject {
    const root: JSONObject = {};
    for (const k of [...set].sort()) {
      let node = root;
      for (const el of keyPath(k)) node = (node[el] ??= {}) as JSONObject;
      node["."] = {};
    }
    return collapse(root);
  }
  function collapse(node: JSONObject): JSONObject {
    const keys = Object.keys(node)
      .filter((k) => k !== ".")
      .sort(compareElements);
    if (keys.length === 0) return {};
    const out: JSONObject = {};
    if ("." in node) out["."] = {};
    for (const k of keys) out[k] = collapse(node[k] as JSONObject);
    return out;
  }
  function compareElements(a: string, b: string): number {
    const order = "fkvi";
    const d = order.indexOf(a[0] ?? "") - order.indexOf(b[0] ?? "");
    if (d !== 0) return d;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  function decodeSet(fields: JSONValue | undefined): Set<string> {
    const out = new Set<string>();
    const walk = (node: JSONValue, path: string[]): void => {
      if (!isObject(node)) return;
      const keys = Object.keys(node);
      if (path.length > 0 && (keys.length === 0 || keys.includes("."))) out.add(pathKey(path));
      for (const k of keys) if (k !== ".") walk(node[k] as JSONValue, [...path, k]);
    };
    walk(fields ?? {}, []);
    return out;
  }
  interface State {
    entry: Record<string, JSONValue>;
    set: Set<string>;
  }
  function decodeManagers(obj: JSONValue | undefined): Map<string, State> {
    const out = new Map<string, State>();
    const meta = isObject(obj) ? obj.metadata : undefined;
    const list = isObject(meta) ? meta.managedFields : undefined;
    if (!Array.isArray(list)) return out;
    for (const raw of list) {
      if (!isObject(raw)) continue;
      const { fieldsV1, fieldsType: _t, ...entry } = raw;
      out.set(managerId(entry as never), { entry, set: decodeSet(fieldsV1) });
    }
    return out;
  }
  function toFieldsV1Of(set: Set<string>): JSONObject {
    return encode(set);
  }
  function fromFieldsV1Of(fields: JSONValue): Set<string> {
    return decodeSet(fields);
  }
  function compare(
    kind: string,
    oldObj: JSONValue | undefined,
    newObj: JSONValue,
    subresource?: string,
  ): { added: Set<string>; modified: Set<string>; removed: Set<string> } {
    const before = nodeValues(kind, oldObj);
    const after = nodeValues(kind, newObj);
    const c = { added: new Set<string>(), modified: new Set<string>(), removed: new Set<string>() };
    const owned = resetFilter(subresource);
    for (const k of [...before.keys(), ...after.keys()]) {
      if (!owned(k)) {
        before.delete(k);
        after.delete(k);
      }
    }
    for (const [k, n] of after) {
      const o = before.get(k);
      if (o === undefined) {
        if (n.member || (JSON.parse(k) as string[]).length > 1) c.added.add(k);
      } else if (n.leaf && !deepEqual(o.value, n.value)) {
        c.modified.add(k);
      }
    }
    for (const k of before.keys()) if (!after.has(k)) c.removed.add(k);
    return c;
  }
  function update(
    oldObj: JSONValue | undefined,
    newObj: JSONObject,
    manager: string,
    apiVersion: string,
    now: Date,
    subresource?: string,
  ): JSONObject {
    const oldList = isObject(oldObj) && isObject(oldObj.metadata) ? oldObj.metadata.managedFields : undefined;
    const newList = isObject(newObj.metadata) ? newObj.metadata.managedFields : undefined;
    const managers = Array.isArray(newList) && !deepEqual(oldList, newList) ? decodeManagers(newObj) : decodeManagers(oldObj);
    const kind = typeof newObj.kind === "string" ? newObj.kind : "";
    const c = compare(kind, oldObj, newObj, subresource);
    const taken = new Set([...c.added, ...c.modified]);
    const entry = { manager, operation: "Update" as const, apiVersion, ...(subresource ? { subresource } : {}) };
    const id = managerId(entry);
    for (const [k, m] of managers) if (k !== id) m.set = new Set([...m.set].filter((p) => !taken.has(p) && !c.removed.has(p)));
    const own = managers.get(id) ?? { entry: { ...entry }, set: new Set<string>() };
    const set = new Set([...own.set, ...taken].filter((p) => !c.removed.has(p)));
    if (set.size !== own.set.size || taken.size > 0) own.entry = { ...entry, time: formatTime(now) };
    own.set = set;
    managers.set(id, own);
    const s = (v: JSONValue | undefined): string => (typeof v === "string" ? v : "");
    const cmp = (a: JSONValue | undefined, b: JSONValue | undefined): number => (s(a) < s(b) ? -1 : s(a) > s(b) ? 1 : 0);
    const entries = [...managers.values()]
      .filter((m) => m.set.size > 0)
      .map((m): Record<string, JSONValue> => ({ ...m.entry, fieldsType: "FieldsV1", fieldsV1: encode(m.set) }))
      .sort(
        (a, b) =>
          cmp(a.operation, b.operation) ||
          cmp(a.time, b.time) ||
          cmp(a.manager, b.manager) ||
          cmp(a.apiVersion, b.apiVersion) ||
          cmp(a.subresource, b.subresource),
      );
    const metadata = isObject(newObj.metadata) ? { ...newObj.metadata } : {};
    if (entries.length > 0) metadata.managedFields = entries;
    else delete metadata.managedFields;
    return { ...newObj, metadata };
  }
  return { toFieldsV1Of, fromFieldsV1Of, compare, update };
})();

const now = new Date("2026-12-02T10:00:00.123Z");
const later = new Date("2026-12-02T11:00:00Z");
const text = (v: unknown): string => JSON.stringify(v);

const svc = (spec: JSONObject, metadata: JSONObject = { name: "web", namespace: "default" }, extra: JSONObject = {}): JSONObject => ({
  apiVersion: "v1",
  kind: "Service",
  metadata,
  spec,
  ...extra,
});
const defaulted: JSONObject = svc(
  {
    selector: { app: "svc-1" },
    ports: [{ name: "http", port: 80, protocol: "TCP", targetPort: 8080 }],
    clusterIP: "10.0.12.34",
    clusterIPs: ["10.0.12.34"],
    ipFamilies: ["IPv4"],
    ipFamilyPolicy: "SingleStack",
    sessionAffinity: "None",
    type: "ClusterIP",
    internalTrafficPolicy: "Cluster",
  },
  { name: "svc-1", namespace: "default", labels: { app: "svc-1", tier: "backend" } },
  { status: { loadBalancer: {} } },
);

/** Objects of many shapes, including odd ones the decoders would refuse later (the bookkeeping runs first). */
const objects: [string, JSONObject][] = [
  ["defaulted Service (bench/http-load.ts body)", defaulted],
  [
    "Service, ports without protocol",
    svc({ ports: [{ port: 80 }, { port: 53, protocol: "UDP", name: "dns" }, { port: 443, targetPort: "https" }] }),
  ],
  [
    "Service, dual-stack",
    svc({
      type: "ClusterIP",
      ipFamilyPolicy: "RequireDualStack",
      ipFamilies: ["IPv4", "IPv6"],
      clusterIPs: ["10.0.0.10", "fd00::10"],
      ports: [{ port: 80, protocol: "TCP" }],
    }),
  ],
  [
    "Service, LoadBalancer with status",
    svc(
      {
        type: "LoadBalancer",
        ports: [{ port: 80, nodePort: 30080, protocol: "TCP" }],
        loadBalancerSourceRanges: ["10.0.0.0/8"],
        externalIPs: [],
      },
      { name: "lb", annotations: { "a.b/c": "x", 'q"uote': "y" } },
      {
        status: {
          loadBalancer: { ingress: [{ ip: "1.2.3.4", ports: [{ port: 80, protocol: "TCP" }] }] },
          conditions: [{ type: "Ready", status: "True" }],
        },
      },
    ),
  ],
  [
    "Service, ExternalName, empty maps",
    svc({ type: "ExternalName", externalName: "db.example.com", selector: {} }, { name: "x", labels: {}, annotations: {} }),
  ],
  ["Service, empty spec", svc({})],
  [
    "Service, only stripped metadata",
    {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "a", namespace: "b", uid: "u", resourceVersion: "1", generation: 2, creationTimestamp: "2026-01-01T00:00:00Z" },
    },
  ],
  [
    "Service, finalizers and ownerReferences",
    svc(
      { ports: [] },
      {
        name: "f",
        finalizers: ["a/b", "c/d", "a/b"],
        ownerReferences: [
          { uid: "1", kind: "X", name: "y" },
          { uid: "2", kind: "X", name: "z" },
        ],
      },
    ),
  ],
  ["Service, stripped field that is an object", svc({ type: "ClusterIP" }, { name: { odd: true }, labels: { "": "empty", "a.b": "dot" } })],
  [
    "Service, duplicate ports (fast path declines)",
    svc({
      ports: [
        { port: 80, protocol: "TCP", name: "a" },
        { port: 80, name: "b", targetPort: 1 },
      ],
    }),
  ],
  ["Service, port list with a scalar item", svc({ ports: [80, { port: 81 }, {}] })],
  [
    "Service, unknown top-level fields",
    { ...svc({ type: "NodePort" }), extra: [1, 2], flag: true, nested: { deep: { deeper: [] } }, empty: {} },
  ],
  ["Service, no metadata", { apiVersion: "v1", kind: "Service", spec: { type: "ClusterIP" } }],
  ["Service, nothing recorded", { apiVersion: "v1", kind: "Service" }],
  [
    "EndpointSlice",
    {
      apiVersion: "discovery.k8s.io/v1",
      kind: "EndpointSlice",
      metadata: {
        name: "web-abc",
        namespace: "default",
        labels: { "kubernetes.io/service-name": "web", "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io" },
        ownerReferences: [{ apiVersion: "v1", kind: "Service", name: "web", uid: "u1", controller: true, blockOwnerDeletion: true }],
      },
      addressType: "IPv4",
      endpoints: [
        {
          addresses: ["10.1.0.5"],
          conditions: { ready: true, serving: true, terminating: false },
          nodeName: "n1",
          targetRef: { kind: "Pod", name: "p", namespace: "default", uid: "u2" },
        },
      ],
      ports: [{ name: "http", port: 8080, protocol: "TCP" }],
    },
  ],
  [
    "IPAddress",
    {
      apiVersion: "networking.k8s.io/v1",
      kind: "IPAddress",
      metadata: {
        name: "10.0.12.34",
        labels: { "ipaddress.kubernetes.io/ip-family": "IPv4", "ipaddress.kubernetes.io/managed-by": "ipallocator.k8s.io" },
      },
      spec: { parentRef: { group: "", resource: "services", namespace: "default", name: "svc-1" } },
    },
  ],
  [
    "ServiceCIDR",
    {
      apiVersion: "networking.k8s.io/v1",
      kind: "ServiceCIDR",
      metadata: { name: "kubernetes" },
      spec: { cidrs: ["10.0.0.0/16", "fd00::/108"] },
      status: { conditions: [{ type: "Ready", status: "True", reason: "", message: "", lastTransitionTime: "2026-01-01T00:00:00Z" }] },
    },
  ],
  [
    "Pod (container ports with key defaults, sets in Node)",
    {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "p" },
      spec: {
        containers: [
          {
            name: "c",
            image: "i",
            ports: [{ containerPort: 80 }, { containerPort: 53, protocol: "UDP" }],
            env: [{ name: "A", value: "1" }],
          },
        ],
      },
    },
  ],
  [
    "Node (set of scalars)",
    {
      apiVersion: "v1",
      kind: "Node",
      metadata: { name: "n" },
      spec: { podCIDRs: ["10.1.0.0/24", "fd00:1::/64"], taints: [{ key: "k", effect: "NoSchedule" }] },
    },
  ],
  [
    "unknown kind",
    { apiVersion: "x/v1", kind: "Widget", metadata: { name: "w", finalizers: ["z", "a"] }, spec: { list: [{ a: 1 }], map: { b: 2 } } },
  ],
  [
    "names of Object.prototype's members, and fields deep below names without metadata",
    JSON.parse(
      '{"apiVersion":"v1","kind":"Service","metadata":{"name":"s","ownerReferences":[{"apiVersion":"v1","kind":"X","name":"o","uid":"u"}],"finalizers":["f"],"labels":{"a.b/c":"d"}},"constructor":{"a":1},"__proto__":{"b":{"c":2}},"spec":{"toString":{"x":{"y":[1]}},"ports":[{"port":80,"protocol":"TCP","__proto__":{"y":1}}],"sessionAffinityConfig":{"clientIP":{"timeoutSeconds":5}}}}',
    ) as JSONObject,
  ],
];

describe("createdFieldsV1 (the create fast path)", () => {
  it.each(objects)("%s: equals the added set's FieldsV1, for the main resource and the status subresource", (_name, obj) => {
    for (const sub of [undefined, "status"]) {
      const kind = typeof obj.kind === "string" ? obj.kind : "";
      const fast = createdFieldsV1(kind, obj, sub);
      if (fast === undefined) continue;
      expect(text(fast)).toBe(text(oracle.toFieldsV1Of(oracle.compare(kind, undefined, obj, sub).added)));
      expect(text(fast)).toBe(text(toFieldsV1(compareObjects(kind, undefined, obj, sub).added)));
    }
  });

  it.each(objects)("%s: updateManagedFields (fast) = updateManagedFieldsGeneral = the original implementation", (_name, obj) => {
    for (const sub of [undefined, "status"]) {
      const want = text(oracle.update(undefined, obj, "kubectl-create", "v1", now, sub));
      expect(text(updateManagedFields(undefined, obj, "kubectl-create", "Update", "v1", now, sub))).toBe(want);
      expect(text(updateManagedFieldsGeneral(undefined, obj, "kubectl-create", "Update", "v1", now, sub))).toBe(want);
    }
  });

  it("gives a marked map of labels (a near-limit body's) the set the walk gives, marked in turn", () => {
    const labels = { b: "1", a: "2", "x.io/y": "3", "10": "4" };
    const plain: JSONObject = {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "s", labels: { ...labels } },
      spec: { ports: [{ port: 80 }] },
    };
    markStringMap(labels);
    const marked: JSONObject = { ...plain, metadata: { name: "s", labels } };
    const fast = createdFieldsV1("Service", marked)!;
    expect(text(fast)).toBe(text(createdFieldsV1("Service", plain)!));
    expect(isStringMap((fast["f:metadata"] as JSONObject)["f:labels"])).toBe(true);
  });

  it("declines a list that names two items alike, and the set-based path merges them", () => {
    const dup = objects.find(([n]) => n.startsWith("Service, duplicate ports"))?.[1] as JSONObject;
    expect(createdFieldsV1("Service", dup)).toBeUndefined();
    expect(text(updateManagedFields(undefined, dup, "m", "Update", "v1", now))).toContain(
      '"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:name":{},"f:port":{},"f:protocol":{},"f:targetPort":{}}',
    );
  });

  it("records the defaulted Service as upstream's field manager does (golden)", () => {
    const out = updateManagedFields(undefined, defaulted, "kubectl-create", "Update", "v1", now);
    expect(text((out.metadata as JSONObject).managedFields)).toBe(
      text([
        {
          manager: "kubectl-create",
          operation: "Update",
          apiVersion: "v1",
          time: "2026-12-02T10:00:00Z",
          fieldsType: "FieldsV1",
          fieldsV1: {
            "f:metadata": { "f:labels": { ".": {}, "f:app": {}, "f:tier": {} } },
            "f:spec": {
              "f:clusterIP": {},
              "f:clusterIPs": {},
              "f:internalTrafficPolicy": {},
              "f:ipFamilies": {},
              "f:ipFamilyPolicy": {},
              "f:ports": {
                ".": {},
                'k:{"port":80,"protocol":"TCP"}': { ".": {}, "f:name": {}, "f:port": {}, "f:protocol": {}, "f:targetPort": {} },
              },
              "f:selector": {},
              "f:sessionAffinity": {},
              "f:type": {},
            },
          },
        },
      ]),
    );
  });

  it("keeps a client's managedFields on create (general path)", () => {
    const given = {
      ...defaulted,
      metadata: {
        ...(defaulted.metadata as JSONObject),
        managedFields: [
          {
            manager: "x",
            operation: "Update",
            apiVersion: "v1",
            time: "2026-01-01T00:00:00Z",
            fieldsType: "FieldsV1",
            fieldsV1: { "f:spec": { "f:type": {}, "f:other": {} } },
          },
        ],
      },
    };
    const want = text(oracle.update(undefined, given, "m", "v1", now));
    expect(text(updateManagedFields(undefined, given, "m", "Update", "v1", now))).toBe(want);
    expect(want).toContain('"manager":"x"');
  });
});

describe("updateManagedFields on updates = the original implementation", () => {
  const mutate = (o: JSONObject, f: (c: JSONObject) => void): JSONObject => {
    const c = structuredClone(o);
    f(c);
    return c;
  };
  const spec = (o: JSONObject): JSONObject => o.spec as JSONObject;
  const meta = (o: JSONObject): JSONObject => o.metadata as JSONObject;
  const stored = oracle.update(undefined, defaulted, "kubectl-create", "v1", now);
  const withStatusOwner = oracle.update(
    stored,
    mutate(stored, (c) => void ((c.status as JSONObject).loadBalancer = { ingress: [{ ip: "1.2.3.4" }] })),
    "lb-controller",
    "v1",
    now,
    "status",
  );
  const cases: [string, JSONObject, JSONObject, string, string | undefined][] = [
    [
      "a label changed by another manager",
      stored,
      mutate(stored, (c) => void ((meta(c).labels as JSONObject).tier = "frontend")),
      "kubectl-edit",
      undefined,
    ],
    [
      "a label changed by the same manager",
      stored,
      mutate(stored, (c) => void ((meta(c).labels as JSONObject).tier = "frontend")),
      "kubectl-create",
      undefined,
    ],
    [
      "a port added by the same manager",
      stored,
      mutate(stored, (c) => void (spec(c).ports = [...(spec(c).ports as JSONObject[]), { port: 53, protocol: "UDP" }])),
      "kubectl-create",
      undefined,
    ],
    ["nothing changed", stored, structuredClone(stored), "kubectl-edit", undefined],
    [
      "a port added and the selector removed",
      stored,
      mutate(stored, (c) => {
        spec(c).ports = [...(spec(c).ports as JSONObject[]), { port: 443, protocol: "TCP", targetPort: 8443 }];
        delete spec(c).selector;
      }),
      "b",
      undefined,
    ],
    [
      "every field removed",
      stored,
      { apiVersion: "v1", kind: "Service", metadata: { name: "svc-1", managedFields: meta(stored).managedFields as JSONValue } },
      "b",
      undefined,
    ],
    [
      "status by a controller (owner untouched)",
      stored,
      mutate(stored, (c) => void ((c.status as JSONObject).loadBalancer = { ingress: [{ ip: "1.2.3.4" }] })),
      "lb-controller",
      "status",
    ],
    [
      "spec change with a status owner present",
      withStatusOwner,
      mutate(withStatusOwner, (c) => void (spec(c).sessionAffinity = "ClientIP")),
      "kubectl-edit",
      undefined,
    ],
    [
      "client rewrites managedFields",
      stored,
      mutate(
        stored,
        (c) =>
          void (meta(c).managedFields = [
            {
              manager: "z",
              operation: "Apply",
              apiVersion: "v1",
              fieldsType: "FieldsV1",
              fieldsV1: { "f:spec": { "f:type": { ".": {} }, "f:ports": { "f:x": 1 } }, "f:metadata": {} },
            },
          ]),
      ),
      "kubectl-edit",
      undefined,
    ],
    ["client clears managedFields", stored, mutate(stored, (c) => void (meta(c).managedFields = [])), "kubectl-edit", undefined],
    ["old object is not an object", 7 as unknown as JSONObject, defaulted, "m", undefined],
  ];
  it.each(cases)("%s", (_n, oldObj, newObj, manager, sub) => {
    const want = text(oracle.update(oldObj, newObj, manager, "v1", later, sub));
    expect(text(updateManagedFields(oldObj, newObj, manager, "Update", "v1", later, sub))).toBe(want);
  });
});

describe("normalizeFieldsV1", () => {
  it.each<[string, JSONValue]>([
    ["canonical", { "f:a": { ".": {}, "f:b": {} } }],
    [
      "unsorted, with '.' on a leaf and a childless intermediate",
      {
        "i:1": {},
        'k:{"a":1}': { "f:z": {}, "f:y": { ".": {} } },
        "f:x": { "f:gone": 5 },
        'v:"q"': {},
        "f:a": { ".": { odd: 1 }, "f:b": {} },
      },
    ],
    ["not an object", 3],
    ["empty", {}],
    ["unknown prefixes", { "x:1": {}, "": { "f:a": {} }, "f:": {} }],
  ])("%s: equals toFieldsV1(fromFieldsV1(x)) and the original encoding", (_n, fields) => {
    expect(text(normalizeFieldsV1(fields))).toBe(text(toFieldsV1(fromFieldsV1(fields))));
    expect(text(normalizeFieldsV1(fields))).toBe(text(oracle.toFieldsV1Of(oracle.fromFieldsV1Of(fields))));
  });
});

describe("random create and update sequences = the original implementation", () => {
  // A small deterministic generator, so that a failure is reproducible.
  const rng =
    (seed: number): (() => number) =>
    () =>
      (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const some = <T>(r: () => number, xs: readonly T[]): T[] => xs.filter(() => r() < 0.5);

  function randomService(r: () => number): JSONObject {
    const metadata: JSONObject = { name: "web", namespace: "default" };
    if (r() < 0.8) metadata.labels = Object.fromEntries(some(r, ["app", "tier", "a.b/c", "x"]).map((k) => [k, pick(r, ["1", "2"])]));
    if (r() < 0.4)
      metadata.annotations = Object.fromEntries(
        some(r, ["note", "kubectl.kubernetes.io/last-applied-configuration"]).map((k) => [k, pick(r, ["a", "b"])]),
      );
    if (r() < 0.2) metadata.finalizers = some(r, ["a/b", "c/d", "a/b"]);
    const spec: JSONObject = {};
    for (const [k, vs] of [
      ["type", ["ClusterIP", "NodePort", "LoadBalancer"]],
      ["sessionAffinity", ["None", "ClientIP"]],
      ["ipFamilyPolicy", ["SingleStack", "PreferDualStack"]],
      ["clusterIP", ["10.0.0.1", "None"]],
    ] as const)
      if (r() < 0.7) spec[k] = pick(r, vs);
    if (r() < 0.6) spec.ipFamilies = some(r, ["IPv4", "IPv6"]);
    if (r() < 0.7) spec.selector = Object.fromEntries(some(r, ["app", "tier"]).map((k) => [k, pick(r, ["1", "2"])]));
    if (r() < 0.8) {
      spec.ports = Array.from({ length: Math.floor(r() * 4) }, () => {
        const p: JSONObject = { port: pick(r, [80, 443, 53]) };
        if (r() < 0.5) p.protocol = pick(r, ["TCP", "UDP"]);
        if (r() < 0.5) p.targetPort = pick(r, [8080, "http"]);
        if (r() < 0.3) p.name = pick(r, ["a", "b"]);
        return p;
      });
    }
    const obj: JSONObject = { apiVersion: "v1", kind: "Service", metadata, spec };
    if (r() < 0.4)
      obj.status = {
        loadBalancer: r() < 0.5 ? {} : { ingress: [{ ip: pick(r, ["1.1.1.1", "2.2.2.2"]) }] },
        ...(r() < 0.5 ? { conditions: [{ type: "Ready", status: pick(r, ["True", "False"]) }] } : {}),
      };
    return obj;
  }

  it("300 steps over 5 chains, three managers, main resource and status", () => {
    for (let chain = 0; chain < 5; chain++) {
      const r = rng(chain + 1);
      let stored: JSONObject | undefined;
      for (let step = 0; step < 60; step++) {
        const next = randomService(r);
        const keepManaged = stored !== undefined && r() < 0.9;
        if (keepManaged)
          (next.metadata as JSONObject).managedFields = structuredClone((stored?.metadata as JSONObject).managedFields ?? null);
        const manager = pick(r, ["a", "b", "c"]);
        const sub = r() < 0.25 ? "status" : undefined;
        const when = new Date(now.getTime() + step * 1000);
        const want = text(oracle.update(stored, next, manager, "v1", when, sub));
        const got = updateManagedFields(stored, next, manager, "Update", "v1", when, sub);
        expect(text(got), `chain ${chain} step ${step}`).toBe(want);
        stored = structuredClone(got);
      }
    }
  });
});
