/**
 * clusterroleaggregation_controller_test.go TestSyncClusterRole: each case with server-side apply
 * served and refused (415 UnsupportedMediaType, then the update fallback), the lister a real
 * informer and the client client-node, both on the shared fake apiserver.
 */
import { KubeConfig } from "@kubernetes/client-node";
import type { ClusterRole, PolicyRule } from "@servicenet/api";
import { SharedInformer, type PlainList } from "@servicenet/client/tools/cache";
import { defaultResources, eventually, failure, FakeAPIServer, rbacResources } from "@servicenet/testing";
import { afterEach, describe, expect, it } from "vitest";
import { ClusterRoleAggregationController } from "./clusterroleaggregation-controller.ts";
import { clusterRoleClient } from "./clusterroles-client.ts";
import { clusterRoleApply, type ClusterRoleApplyConfiguration } from "./rules.ts";

const hammerRules = (): PolicyRule[] => [
  { verbs: ["hammer"], resources: ["nails"] },
  { verbs: ["hammer"], resources: ["wedges"] },
];
const chiselRules = (): PolicyRule[] => [{ verbs: ["chisel"], resources: ["mortises"] }];
const sawRules = (): PolicyRule[] => [{ verbs: ["saw"], resources: ["boards"] }];

const apiVersion = "rbac.authorization.k8s.io/v1";
const role = (name: string, labels: Record<string, string>, rules: PolicyRule[]): ClusterRole => ({
  apiVersion,
  kind: "ClusterRole",
  metadata: { name, labels },
  rules,
});
const combinedRole = (selectors: Record<string, string>[], ...rules: PolicyRule[][]): ClusterRole => ({
  apiVersion,
  kind: "ClusterRole",
  metadata: { name: "combined" },
  aggregationRule: { clusterRoleSelectors: selectors.map((matchLabels) => ({ matchLabels })) },
  rules: rules.length > 0 ? rules.flat() : null,
});
const combinedApplyRole = (_selectors: Record<string, string>[], ...rules: PolicyRule[][]): ClusterRoleApplyConfiguration =>
  clusterRoleApply("combined", rules.flat());

interface Case {
  name: string;
  startingClusterRoles: ClusterRole[];
  clusterRoleToSync: string;
  expectedClusterRole?: ClusterRole;
  expectedClusterRoleApply?: ClusterRoleApplyConfiguration;
}

const tests: Case[] = [
  {
    name: "remove dead rules",
    startingClusterRoles: [role("hammer", { foo: "bar" }, hammerRules()), combinedRole([{ foo: "bar" }], sawRules())],
    clusterRoleToSync: "combined",
    expectedClusterRole: combinedRole([{ foo: "bar" }], hammerRules()),
    expectedClusterRoleApply: combinedApplyRole([{ foo: "bar" }], hammerRules()),
  },
  {
    name: "strip rules",
    startingClusterRoles: [role("hammer", { foo: "not-bar" }, hammerRules()), combinedRole([{ foo: "bar" }], hammerRules())],
    clusterRoleToSync: "combined",
    expectedClusterRole: combinedRole([{ foo: "bar" }]),
    expectedClusterRoleApply: combinedApplyRole([{ foo: "bar" }]),
  },
  {
    name: "select properly and put in order",
    startingClusterRoles: [
      role("hammer", { foo: "bar" }, hammerRules()),
      role("chisel", { foo: "bar" }, chiselRules()),
      role("saw", { foo: "not-bar" }, sawRules()),
      combinedRole([{ foo: "bar" }]),
    ],
    clusterRoleToSync: "combined",
    expectedClusterRole: combinedRole([{ foo: "bar" }], chiselRules(), hammerRules()),
    expectedClusterRoleApply: combinedApplyRole([{ foo: "bar" }], chiselRules(), hammerRules()),
  },
  {
    name: "select properly with multiple selectors",
    startingClusterRoles: [
      role("hammer", { foo: "bar" }, hammerRules()),
      role("chisel", { foo: "bar" }, chiselRules()),
      role("saw", { foo: "not-bar" }, sawRules()),
      combinedRole([{ foo: "bar" }, { foo: "not-bar" }]),
    ],
    clusterRoleToSync: "combined",
    expectedClusterRole: combinedRole([{ foo: "bar" }, { foo: "not-bar" }], chiselRules(), hammerRules(), sawRules()),
    expectedClusterRoleApply: combinedApplyRole([{ foo: "bar" }, { foo: "not-bar" }], chiselRules(), hammerRules(), sawRules()),
  },
  {
    name: "select properly remove duplicates",
    startingClusterRoles: [
      role("hammer", { foo: "bar" }, hammerRules()),
      role("chisel", { foo: "bar" }, chiselRules()),
      role("saw", { foo: "bar" }, sawRules()),
      role("other-saw", { foo: "not-bar" }, sawRules()),
      combinedRole([{ foo: "bar" }, { foo: "not-bar" }]),
    ],
    clusterRoleToSync: "combined",
    expectedClusterRole: combinedRole([{ foo: "bar" }, { foo: "not-bar" }], chiselRules(), hammerRules(), sawRules()),
    expectedClusterRoleApply: combinedApplyRole([{ foo: "bar" }, { foo: "not-bar" }], chiselRules(), hammerRules(), sawRules()),
  },
  {
    name: "no diff skip",
    startingClusterRoles: [role("hammer", { foo: "bar" }, hammerRules()), combinedRole([{ foo: "bar" }], hammerRules())],
    clusterRoleToSync: "combined",
  },
];

let server: FakeAPIServer | undefined;
let informer: SharedInformer<ClusterRole> | undefined;
afterEach(async () => {
  await informer?.stop();
  await server?.stop();
});

async function setUp(t: Case, serverSideApplyEnabled: boolean) {
  server = new FakeAPIServer({ resources: [...defaultResources, ...rbacResources], objects: t.startingClusterRoles });
  // The tracker cannot apply; answer the patch here, as upstream's trivial reactor does.
  server.prependReactor("patch", "clusterroles", () =>
    serverSideApplyEnabled ? { status: 200, body: {} } : { status: 415, body: failure(415, "UnsupportedMediaType", "Apply not supported") },
  );
  const url = await server.start();
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser({ name: "fake", server: url, skipTLSVerify: true }, { name: "u", token: "t" });
  informer = new SharedInformer<ClusterRole>({
    kubeConfig: kc,
    path: "/apis/rbac.authorization.k8s.io/v1/clusterroles",
    list: async () => (await (await fetch(`${url}/apis/rbac.authorization.k8s.io/v1/clusterroles`)).json()) as PlainList<ClusterRole>,
  });
  const c = new ClusterRoleAggregationController({ clusterRoles: informer, client: clusterRoleClient(kc) });
  await informer.start();
  const inf = informer;
  await eventually(() => inf.hasSynced(), { what: "the ClusterRole informer to sync" });
  return { c, server };
}

describe("TestSyncClusterRole", () => {
  for (const serverSideApplyEnabled of [true, false]) {
    it.each(tests.map((t) => [t.name, t] as const))(
      `%s (server-side apply ${serverSideApplyEnabled ? "served" : "refused"})`,
      async (_n, t) => {
        const { c, server } = await setUp(t, serverSideApplyEnabled);
        await c.syncClusterRole(t.clusterRoleToSync);
        const writes = server.writes;
        if (t.expectedClusterRoleApply === undefined) {
          expect(writes).toEqual([]);
          return;
        }
        expect(writes.length).toBe(serverSideApplyEnabled ? 1 : 2);
        const apply = writes[0]!;
        expect([apply.verb, apply.resource.name, apply.name]).toEqual(["patch", "clusterroles", "combined"]);
        expect(apply.query.get("fieldManager")).toBe("clusterrole-aggregation-controller");
        expect(apply.query.get("force")).toBe("true");
        expect(apply.body).toEqual(t.expectedClusterRoleApply);
        if (serverSideApplyEnabled) return;
        const update = writes[1]!;
        expect([update.verb, update.resource.name, update.name]).toEqual(["update", "clusterroles", "combined"]);
        const { metadata, ...rest } = update.body as ClusterRole;
        const { metadata: wantMeta, ...wantRest } = t.expectedClusterRole!;
        expect(metadata).toMatchObject(wantMeta);
        expect(rest).toEqual(wantRest);
      },
    );
  }
});

describe("enqueue", () => {
  it("queues every ClusterRole with an aggregationRule on any ClusterRole event", async () => {
    const { c } = await setUp(tests[2]!, true);
    c.enqueue();
    expect(c.queue.len()).toBe(1);
    expect(await c.queue.get()).toBe("combined");
  });
});
