/**
 * The flaw every fuzzed write carries: one defect that upstream rejects whatever else the body
 * holds (a bad parameter, media type, kind, name, a stale resourceVersion, a missing target...),
 * so no write may succeed and stored data must stay exactly as it was.
 */
import type { Endpoint } from "./discovery-walk.ts";
import { hostileYAML, invalidUTF8, protobufGarbage, type Rng } from "./hostile.ts";
import { badDeleteParams, badWriteParams, param, randomParams } from "./query-garbage.ts";

/** A request under construction. */
export interface Draft {
  method: string;
  path: string;
  params: string[];
  headers: Record<string, string>;
  /** The body object, serialised last (unless `body` is set). */
  obj?: unknown;
  body?: string | Buffer;
  /** Why this request must fail ("" for reads, which may succeed). */
  flaw: string;
}

/** What a write addresses. */
export interface Target {
  ep: Endpoint;
  apiVersion: string;
  /** The object exists (a seed); false for missing names. */
  exists: boolean;
  /** The name is a path trick: only flaws that fail on any path are used. */
  hostileName: boolean;
  /** The collection path with a namespace that does not exist (namespaced resources). */
  missingNamespacePath?: string;
}

const badContentTypes = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/cbor",
  "application/xml",
  "image/png",
  "application/json-patch+json",
];
const badPatchTypes = [
  "application/json",
  "text/plain",
  "application/yaml",
  "application/x-www-form-urlencoded",
  "application/merge-patch+yaml",
  "application/strategic-merge-patch+json+json",
  "application/apply-patch+json",
];
const badNames: readonly unknown[] = [
  "Bad_Name",
  "a/b",
  "..",
  "UPPER",
  "x".repeat(300),
  "-x",
  "a b",
  "\u0000",
  "\u00e9",
  "a..b",
  5,
  ["a"],
  { a: 1 },
  true,
];
/**
 * RBAC objects' names are only path segments (pkg/apis/rbac/validation ValidateRBACName =
 * path.IsValidPathSegmentName): "-x", "UPPER" or a NUL byte are valid there, so only these are bad.
 */
const badPathSegmentNames: readonly unknown[] = ["a/b", "..", ".", "a%b", 5, ["a"], { a: 1 }, true];
const pathSegmentNamed = (t: Target): boolean => t.ep.group === "rbac.authorization.k8s.io";
const otherKinds = ["Pod", "Service", "Namespace", "Lease", "Deployment", "Status", "List", "service"];

function setMeta(obj: unknown, key: string, value: unknown): void {
  if (obj !== null && typeof obj === "object" && !Array.isArray(obj)) {
    const o = obj as Record<string, unknown>;
    const meta =
      o["metadata"] !== null && typeof o["metadata"] === "object" && !Array.isArray(o["metadata"])
        ? (o["metadata"] as Record<string, unknown>)
        : (o["metadata"] = {});
    meta[key] = value;
  }
}

/** Flaws every write verb fails on, wherever the path leads (used for hostile paths too). */
function universal(rng: Rng, d: Draft): Record<string, () => void> {
  return { dryRun: () => d.params.push(param("dryRun", rng.pick(badWriteParams["dryRun"]!))) };
}

/** Picks one of `fns` (only `dryRun` for hostile paths); 3% of writes are over the 3 MiB limit instead. */
function oneOf(rng: Rng, t: Target, d: Draft, fns: Record<string, () => void>, pathSafe = "dryRun"): void {
  if (rng.chance(0.03)) {
    d.flaw = "tooLarge";
    d.body = `{"metadata":{"annotations":{"x":"${"x".repeat(3 * 1024 * 1024 + rng.int(512 * 1024))}"}}}`;
    return;
  }
  const name = t.hostileName ? pathSafe : rng.pick(Object.keys(fns));
  d.flaw = name;
  fns[name]!();
}

/** POST to a collection. */
export function flawCreate(rng: Rng, d: Draft, t: Target): void {
  const obj = d.obj as Record<string, unknown>;
  const fns: Record<string, () => void> = {
    ...universal(rng, d),
    fieldValidation: () => d.params.push(param("fieldValidation", rng.pick(badWriteParams["fieldValidation"]!))),
    fieldManager: () => d.params.push(param("fieldManager", rng.pick(badWriteParams["fieldManager"]!))),
    contentType: () => (d.headers["Content-Type"] = rng.pick(badContentTypes)),
    syntax: () =>
      (d.body = rng.pick([
        JSON.stringify(obj).slice(0, 1 + rng.int(40)),
        invalidUTF8(JSON.stringify(obj)),
        "{",
        "}",
        "\u0000",
        "nul",
        "[1,]",
        '{"a":1,}',
      ])),
    wrongKind: () => (obj["kind"] = rng.pick(otherKinds.filter((k) => k !== t.ep.kind))),
    // Never the target's own version: networking.k8s.io/v1alpha1 is served (the fuzz server runs with api/all=true).
    wrongApiVersion: () =>
      (obj["apiVersion"] = rng.pick(
        ["v2", "apps/v1", `${t.apiVersion}x`, "networking.k8s.io/v1alpha1", 5, ["v1"]].filter((v) => v !== t.apiVersion),
      )),
    badName: () => setMeta(obj, "name", rng.pick(pathSegmentNamed(t) ? badPathSegmentNames : badNames)),
    protobuf: () => {
      d.headers["Content-Type"] = "application/vnd.kubernetes.protobuf";
      d.body = protobufGarbage(rng);
    },
    yaml: () => {
      d.headers["Content-Type"] = rng.pick(["application/yaml", "application/x-yaml", "text/yaml"]);
      d.body = hostileYAML(rng);
    },
    ...(t.missingNamespacePath
      ? { missingNamespace: () => (d.path = t.missingNamespacePath!), namespaceMismatch: () => setMeta(obj, "namespace", "kube-system") }
      : {}),
    ...decodeFlaws(rng, obj, t),
  };
  oneOf(rng, t, d, fns);
}

/**
 * Numbers Go's decoder refuses (upstream 400 BadRequest): an int64 overflow of metadata.generation
 * for every kind decoded into Go types (Lease bodies are kept as sent), an int32 overflow of a
 * Service port. The body is serialised with JSON.stringify, which writes 2^63 exactly.
 */
function decodeFlaws(rng: Rng, obj: Record<string, unknown>, t: Target): Record<string, () => void> {
  if (t.ep.group === "coordination.k8s.io") return {};
  const out: Record<string, () => void> = { int64Overflow: () => setMeta(obj, "generation", rng.pick([2 ** 63, 1e30, -(2 ** 64)])) };
  if (t.ep.resource === "services" && t.ep.group === "") {
    out["int32Overflow"] = () => (obj["spec"] = { ports: [{ port: rng.pick([2 ** 31, -(2 ** 31) - 1, 2 ** 32]), targetPort: 80 }] });
  }
  return out;
}

/** PUT to an object or its status. */
export function flawUpdate(rng: Rng, d: Draft, t: Target): void {
  const obj = d.obj as Record<string, unknown>;
  const fns: Record<string, () => void> = {
    ...universal(rng, d),
    fieldValidation: () => d.params.push(param("fieldValidation", rng.pick(badWriteParams["fieldValidation"]!))),
    fieldManager: () => d.params.push(param("fieldManager", rng.pick(badWriteParams["fieldManager"]!))),
    contentType: () => (d.headers["Content-Type"] = rng.pick(badContentTypes)),
    syntax: () =>
      (d.body = rng.pick([JSON.stringify(obj).slice(0, 1 + rng.int(40)), invalidUTF8(JSON.stringify(obj)), "", "[]", "null", "42"])),
    wrongKind: () => (obj["kind"] = rng.pick(otherKinds.filter((k) => k !== t.ep.kind))),
    wrongApiVersion: () => (obj["apiVersion"] = rng.pick(["v2", "apps/v1", `${t.apiVersion}x`])),
    nameMismatch: () => setMeta(obj, "name", rng.pick(["fuzz-other-name", undefined, ""])),
    ...(t.missingNamespacePath ? { namespaceMismatch: () => setMeta(obj, "namespace", "kube-system") } : {}),
    ...(t.exists
      ? { staleResourceVersion: () => setMeta(obj, "resourceVersion", rng.pick(["1", "2", "abc", "-1", "99999999999999999999"])) }
      : {}),
    // A uid in a PUT body is a storage precondition: another one is a 409.
    ...(t.exists ? { uidPrecondition: () => setMeta(obj, "uid", "00000000-0000-0000-0000-000000000000") } : {}),
    ...decodeFlaws(rng, obj, t),
  };
  oneOf(rng, t, d, fns);
}

/** PATCH of the given patch type (the Content-Type is already set). */
export function flawPatch(rng: Rng, d: Draft, t: Target, type: "json" | "merge" | "strategic" | "apply"): void {
  const fns: Record<string, () => void> = {
    ...universal(rng, d),
    fieldValidation: () => d.params.push(param("fieldValidation", rng.pick(badWriteParams["fieldValidation"]!))),
    // Replaces apply's own fieldManager: with two, the first one counts (upstream too).
    fieldManager: () =>
      (d.params = [
        ...d.params.filter((p) => !p.startsWith("fieldManager=")),
        param("fieldManager", rng.pick(badWriteParams["fieldManager"]!)),
      ]),
    contentType: () => (d.headers["Content-Type"] = rng.pick(badPatchTypes)),
  };
  if (type === "json") {
    const ops = d.obj as Record<string, unknown>[];
    fns["testFails"] = () => ops.push({ op: "test", path: "/metadata/name", value: "fuzz-definitely-not-this" });
    if (t.exists) fns["staleResourceVersion"] = () => ops.push({ op: "add", path: "/metadata/resourceVersion", value: "1" });
    if (!t.exists) fns["missingTarget"] = () => {};
    // Upstream's checkName: the patched object must keep the URL's name (400), never a 200 that drops metadata.
    if (t.exists) fns["removeMetadata"] = () => ops.push({ op: "remove", path: rng.pick(["/metadata", "/metadata/name"]) });
    fns["wrongKind"] = () => ops.push({ op: "add", path: "/kind", value: t.ep.kind === "Pod" ? "Service" : "Pod" });
  } else if (type === "apply") {
    fns["noFieldManager"] = () => (d.params = d.params.filter((p) => !p.startsWith("fieldManager=")));
    fns["wrongKind"] = () => ((d.obj as Record<string, unknown>)["kind"] = rng.pick(otherKinds.filter((k) => k !== t.ep.kind)));
    fns["syntax"] = () => (d.body = rng.pick(["a: [1\n", "\t- x", "{", "- a\n- b\n", "42", "key: value: other"]));
    if (!t.exists) {
      // An apply that creates: without a name it is checkName's 400, with a uid patcher.applyPatch's 409.
      fns["applyCreateNoName"] = () => setMeta(d.obj, "name", undefined);
      fns["applyCreateUID"] = () => setMeta(d.obj, "uid", "00000000-0000-0000-0000-00000000f022");
    }
  } else {
    if (t.exists) fns["staleResourceVersion"] = () => setMeta(d.obj, "resourceVersion", "1");
    if (!t.exists) fns["missingTarget"] = () => {};
    if (t.exists) fns["nullMetadata"] = () => ((d.obj as Record<string, unknown>)["metadata"] = rng.chance(0.5) ? null : { name: null });
    fns["wrongKind"] = () => ((d.obj as Record<string, unknown>)["kind"] = t.ep.kind === "Pod" ? "Service" : "Pod");
    fns["syntax"] = () => (d.body = rng.pick(["{", "[", "nul", '{"a":}', invalidUTF8("{}")]));
  }
  oneOf(rng, t, d, fns);
}

/** DELETE of an object or a collection. */
export function flawDelete(rng: Rng, d: Draft, t: Target, collection: boolean): void {
  const fns: Record<string, () => void> = {
    params: () => d.params.push(...randomParams(rng, badDeleteParams, 1)),
    syntax: () => {
      d.headers["Content-Type"] = rng.pick(["application/json", "application/yaml"]);
      d.body = rng.pick([
        "{",
        "[1",
        '{"gracePeriodSeconds":"x"}',
        '{"propagationPolicy":"Bogus"}',
        '{"preconditions":"x"}',
        '{"dryRun":["Bogus"]}',
        "a: [1\n",
      ]);
    },
    contentType: () => {
      d.headers["Content-Type"] = rng.pick(badContentTypes);
      d.body = "{}";
    },
    protobuf: () => {
      d.headers["Content-Type"] = "application/vnd.kubernetes.protobuf";
      d.body = protobufGarbage(rng);
    },
  };
  if (collection) {
    fns["selector"] = () =>
      d.params.push(
        rng.chance(0.5)
          ? param("labelSelector", rng.pick(["a in (", "!!", "=", "a b", "x/y/z=1"]))
          : param("fieldSelector", rng.pick(["spec.foo=1", "=", "bogus.field=x"])),
      );
  } else if (t.exists) {
    fns["uidPrecondition"] = () => {
      d.headers["Content-Type"] = "application/json";
      d.body = JSON.stringify({ kind: "DeleteOptions", apiVersion: "v1", preconditions: { uid: "00000000-0000-0000-0000-000000000000" } });
    };
    fns["rvPrecondition"] = () => {
      d.headers["Content-Type"] = "application/json";
      d.body = JSON.stringify({ kind: "DeleteOptions", apiVersion: "v1", preconditions: { resourceVersion: "1" } });
    };
  } else fns["missingTarget"] = () => {};
  oneOf(rng, t, d, fns, "params");
}
