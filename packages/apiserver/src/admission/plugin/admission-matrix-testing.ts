/**
 * The admission matrix upstream's TestWebhookAdmission and TestPolicyAdmission share
 * (test/integration/apiserver/admissionwebhook/admission_test.go, copied into
 * test/integration/apiserver/cel/admission_test_util.go): every resource and subresource that
 * discovery lists with a write verb is written with each of its verbs by an impersonated client,
 * and what admission saw of each request is compared with what the holder expects. The two tests
 * differ only in how they learn what admission saw (the webhooks' reviews, the policies' warnings):
 * that is the {@link AdmissionRecorder} they hand in.
 */
import { expect } from "vitest";
import type { TestResponse, TestServer } from "../../server/testing.ts";
import type { APIResource } from "./webhook/admission-stubs-testing.ts";

/** admission_test.go testClientUsername. */
export const testClientUsername = "webhook-integration-client";

/** A group/version/kind. */
export interface GVK {
  group: string;
  version: string;
  kind: string;
}

/** What one request must look like to admission (holder.expect). */
export interface Expectation {
  /** `<groupVersion>/<resource>[/<subresource>]` as the client wrote it. */
  gvr: string;
  kind: GVK;
  operation: string;
  name: string;
  namespace: string;
  object: boolean;
  oldObject: boolean;
  optionsKind: string | undefined;
}

/** What one admission plugin saw of a request (the fields of upstream's admissionRequest). */
export interface AdmissionRecord {
  /** `<groupVersion>/<resource>[/<subresource>]`. */
  gvr: string;
  operation: string;
  name: string;
  namespace: string;
  object: GVK | null;
  oldObject: GVK | null;
  options: { apiVersion: string; kind: string } | null;
}

/** How a test learns what admission saw: `mark()` before a request, `check()` after it. */
export interface AdmissionRecorder {
  mark(): number;
  check(e: Expectation, from: number, res: TestResponse): void;
}

const writeVerbs = ["create", "update", "patch", "delete", "deletecollection"];

/** Splits a groupVersion into group and version ("v1" is the core group). */
export function splitGroupVersion(gv: string): [string, string] {
  return gv.includes("/") ? (gv.split("/") as [string, string]) : ["", gv];
}

/** The group/version/kind of an object's apiVersion and kind. */
export function gvkOf(obj: unknown): GVK {
  const { apiVersion = "", kind = "" } = (obj ?? {}) as { apiVersion?: string; kind?: string };
  const [group, version] = splitGroupVersion(apiVersion);
  return { group, version, kind };
}

/**
 * holder.verifyRequest: the record of one plugin against the expectation; `expectKind` is the kind
 * that plugin must see (the converted one for a converted plugin). Failures are soft, named `what`.
 */
export function verifyRecord(e: Expectation, expectKind: GVK, record: AdmissionRecord | undefined, what: string): void {
  expect.soft(record, `${what}: no request received`).toBeDefined();
  if (record === undefined) return;
  if (e.object) expect.soft(record.object, `${what}: object`).toEqual(expectKind);
  else expect.soft(record.object, `${what}: unexpected object`).toBeNull();
  if (e.oldObject) expect.soft(record.oldObject, `${what}: old object`).toEqual(expectKind);
  else expect.soft(record.oldObject, `${what}: unexpected old object`).toBeNull();
  if (e.optionsKind !== undefined)
    expect.soft(record.options, `${what}: options`).toEqual({ apiVersion: "meta.k8s.io/v1", kind: e.optionsKind });
  else expect.soft(record.options, `${what}: unexpected options`).toBeNull();
}

/** holder.record's filter: `record` is the request `e` expects, at `gvr` (the converted one for a converted plugin). */
export const recordMatches = (e: Expectation, gvr: string, r: AdmissionRecord): boolean =>
  r.gvr === gvr && r.operation === e.operation && r.namespace === e.namespace && r.name === e.name;

/** The server's resources as discovery lists them (ServerGroupsAndResources), and the ones to test. */
export interface DiscoveredResources {
  resources: Map<string, APIResource>;
  /** The keys with a write verb, sorted by group, version and resource. */
  toTest: string[];
}

/** Walks discovery as upstream's ServerGroupsAndResources; `toTest` in upstream's sort order. */
export async function discoverResources(s: TestServer): Promise<DiscoveredResources> {
  const resources = new Map<string, APIResource>();
  const toTest: string[] = [];
  const groupVersions = ["v1"];
  const groups = (await s.request("/apis")).json() as { groups: { versions: { groupVersion: string }[] }[] };
  for (const g of groups.groups) for (const v of g.versions) groupVersions.push(v.groupVersion);
  for (const gv of groupVersions) {
    const list = (await s.request(gv === "v1" ? "/api/v1" : `/apis/${gv}`)).json() as { resources: Omit<APIResource, "groupVersion">[] };
    for (const r of list.resources) {
      const key = `${gv}/${r.name}`;
      resources.set(key, { ...r, groupVersion: gv });
      if (r.verbs.some((v) => writeVerbs.includes(v))) toTest.push(key);
    }
  }
  const sortKey = (k: string) => {
    const r = resources.get(k)!;
    return [...splitGroupVersion(r.groupVersion), r.name];
  };
  toTest.sort((a, b) => {
    const [x, y] = [sortKey(a), sortKey(b)];
    for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
    return 0;
  });
  return { resources, toTest };
}

/** The kind discovery gives a resource (its own group and version when it lists them). */
export function kindOf(r: APIResource): GVK {
  const [group, version] = splitGroupVersion(r.groupVersion);
  return { group: r.group ?? group, version: r.version ?? version, kind: r.kind };
}

/**
 * The rules of a converted (matchPolicy Equivalent) webhook or policy, and where each tested
 * resource is expected to arrive: the first group/version in sort order serving a resource name is
 * the one named in the rules, and every other one is converted to it (upstream's
 * convertedResources, gvrToConvertedGVR and gvrToConvertedGVK).
 */
export function convertedResources(d: DiscoveredResources): {
  rules: { operations: string[]; apiGroups: string[]; apiVersions: string[]; resources: string[] }[];
  gvr: Map<string, string>;
  gvk: Map<string, GVK>;
} {
  const first = new Map<string, string>();
  const rules: { operations: string[]; apiGroups: string[]; apiVersions: string[]; resources: string[] }[] = [];
  const gvr = new Map<string, string>();
  const gvk = new Map<string, GVK>();
  for (const key of d.toTest) {
    const r = d.resources.get(key)!;
    let converted = first.get(r.name);
    if (converted === undefined) {
      converted = key;
      first.set(r.name, key);
      const [group, version] = splitGroupVersion(r.groupVersion);
      rules.push({ operations: ["*"], apiGroups: [group], apiVersions: [version], resources: [r.name] });
    }
    gvr.set(key, converted);
    gvk.set(key, kindOf(d.resources.get(converted)!));
  }
  return { rules, gvr, gvk };
}
