/**
 * test/integration/apiserver/cel/excludedresources_test.go TestExcludedResources over HTTP: every
 * resource the server serves (`--runtime-config=api/all=true`) whose verbs are only `create`, or
 * `create` and `get` — the transient ones, never persisted — is in exclusion.Included() or
 * exclusion.Excluded(), and every entry of those lists is such a resource — or, here, one of the
 * transient resources of kube-apiserver 1.33 this server does not serve yet (`notServed`), which
 * discovery then does not list at all.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { excludedAdmissionResources, includedAdmissionResources, type GroupResource } from "./resources.ts";

interface APIResourceList {
  groupVersion: string;
  resources: { name: string; verbs: string[] }[];
}

/** discovery.GroupsAndMaybeResources: the resource list of every served group version, legacy group first. */
async function resourceLists(s: TestServer): Promise<APIResourceList[]> {
  const legacy = (await s.request("/api")).json() as { versions: string[] };
  const groups = (await s.request("/apis")).json() as { groups: { versions: { groupVersion: string }[] }[] };
  const paths = [
    ...legacy.versions.map((v) => `/api/${v}`),
    ...groups.groups.flatMap((g) => g.versions.map((v) => `/apis/${v.groupVersion}`)),
  ];
  return Promise.all(paths.map(async (p) => (await s.request(p)).json() as APIResourceList));
}

/**
 * Upstream's Included() entries this server does not serve: the legacy `bindings` (pods/binding is
 * served), pods/eviction (with PodDisruptionBudgets), and the streaming pods/attach, pods/exec and
 * pods/portforward, which need a kubelet server to connect to.
 */
const notServed = new Set(["/bindings", "/pods/attach", "/pods/eviction", "/pods/exec", "/pods/portforward"]);

const key = (gr: GroupResource): string => `${gr.group}/${gr.resource}`;
const interestedVerbCombinations = [["create"], ["create", "get"]];

/** formatGRs: the group resources as upstream prints them, one a line, sorted. */
const formatGRs = (grs: Iterable<string>): string =>
  [...grs]
    .map((k) => {
      const [group, resource] = [k.slice(0, k.indexOf("/")), k.slice(k.indexOf("/") + 1)];
      return `schema.GroupResource{Group:"${group}", Resource:"${resource}"},`;
    })
    .sort()
    .join("\n");

describe("TestExcludedResources", () => {
  let s: TestServer;
  beforeAll(async () => {
    // enable all APIs to cover all defined resources
    s = await startTestServer({ runtimeConfig: "api/all=true" });
  });
  afterAll(async () => {
    await s?.close();
  });

  it("lists every transient resource in Included or Excluded, and nothing else", async () => {
    const interested = new Set<string>();
    const served = new Set<string>();
    for (const rl of await resourceLists(s)) {
      const group = rl.groupVersion.includes("/") ? rl.groupVersion.slice(0, rl.groupVersion.indexOf("/")) : "";
      for (const r of rl.resources) {
        served.add(key({ group, resource: r.name }));
        const verbs = [...r.verbs].sort();
        if (interestedVerbCombinations.some((c) => c.length === verbs.length && c.every((v, i) => v === verbs[i]))) {
          interested.add(key({ group, resource: r.name }));
        }
      }
    }
    const existing = new Set([...includedAdmissionResources(), ...excludedAdmissionResources()].map(key));
    const shouldAdd = [...interested].filter((k) => !existing.has(k));
    const shouldRemove = [...existing].filter((k) => !interested.has(k) && !(notServed.has(k) && !served.has(k)));
    expect(formatGRs(shouldAdd), "should either be in Included or Excluded").toBe("");
    expect(formatGRs(shouldRemove), "in the lists but does not seem to be transient").toBe("");
  });
});
