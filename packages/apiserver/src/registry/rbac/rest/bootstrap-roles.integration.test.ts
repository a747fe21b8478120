/**
 * `rbac/bootstrap-roles` across a restart, driven by real kubectl 1.33 as an administrator would:
 * the policy a first start creates, then what a second start on the same SQLite data does to the
 * objects the administrator changed (storage_rbac.go EnsureRBACPolicy).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClusterRole, ClusterRoleBinding } from "@servicenet/api";
import { haveKubectl, startTestServer, type TestServer } from "../../../server/testing.ts";

describe.skipIf(!haveKubectl())("rbac/bootstrap-roles across a restart (kubectl 1.33)", () => {
  let dir: string;
  let s: TestServer | undefined;
  const start = async () => (s = await startTestServer({ storage: { backend: "sqlite", path: join(dir, "state.db") } }));
  const k = async (...args: string[]) => {
    const r = await s!.kubectl(args);
    expect(r.code, r.stderr).toBe(0);
    return r.stdout;
  };
  const json = async <T>(...args: string[]) => JSON.parse(await k(...args, "-o", "json")) as T;
  const names = (subjects: ClusterRoleBinding["subjects"]) => (subjects ?? []).map((x) => x.name);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "bootstrap-roles-"));
    await start();
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("creates the whole policy on a new cluster, namespaced roles included", async () => {
    expect(await k("get", "clusterrole", "system:kube-scheduler", "system:node", "system:auth-delegator", "-o", "name")).toBe(
      "clusterrole.rbac.authorization.k8s.io/system:kube-scheduler\nclusterrole.rbac.authorization.k8s.io/system:node\nclusterrole.rbac.authorization.k8s.io/system:auth-delegator\n",
    );
    expect(await k("get", "roles", "-n", "kube-system", "-o", "name")).toContain(
      "role.rbac.authorization.k8s.io/system::leader-locking-kube-scheduler\n",
    );
    expect(await k("get", "rolebinding", "-n", "kube-public", "system:controller:bootstrap-signer", "-o", "name")).toBe(
      "rolebinding.rbac.authorization.k8s.io/system:controller:bootstrap-signer\n",
    );
  });

  it("on restart adds what is missing, keeps what the administrator added, and leaves autoupdate=false alone", async () => {
    // Protected and trimmed: kube-proxy's role loses its servicecidrs rule.
    await k("annotate", "clusterrole", "system:node-proxier", "rbac.authorization.kubernetes.io/autoupdate=false", "--overwrite");
    await k("patch", "clusterrole", "system:node-proxier", "--type=json", "-p", '[{"op":"remove","path":"/rules/3"}]');
    // Replaced by the administrator's own rule.
    const own = { apiGroups: ["example.com"], resources: ["widgets"], verbs: ["get"] };
    await k(
      "patch",
      "clusterrole",
      "system:kube-dns",
      "--type=json",
      "-p",
      JSON.stringify([{ op: "replace", path: "/rules", value: [own] }]),
    );
    // The split binding deleted, and the discovery binding given a partner group.
    await k("delete", "clusterrolebinding", "system:public-info-viewer");
    await k(
      "patch",
      "clusterrolebinding",
      "system:discovery",
      "--type=json",
      "-p",
      '[{"op":"add","path":"/subjects/-","value":{"apiGroup":"rbac.authorization.k8s.io","kind":"Group","name":"partners"}}]',
    );
    await k("delete", "role", "-n", "kube-system", "system::leader-locking-kube-scheduler");
    const trimmed = await json<ClusterRole>("get", "clusterrole", "system:node-proxier");

    await s!.close();
    s = undefined;
    await start();

    expect((await json<ClusterRole>("get", "clusterrole", "system:node-proxier")).rules).toEqual(trimmed.rules);
    const dns = await json<ClusterRole>("get", "clusterrole", "system:kube-dns");
    expect(dns.rules?.[0]).toEqual(own);
    expect(dns.rules?.slice(1).map((r) => `${r.verbs.join()} ${r.resources?.join()}`)).toEqual([
      "list endpoints",
      "watch endpoints",
      "list services",
      "watch services",
    ]);
    // system:public-info-viewer comes back with discovery's subjects, then gets its own missing one.
    const viewer = await json<ClusterRoleBinding>("get", "clusterrolebinding", "system:public-info-viewer");
    expect(viewer.roleRef.name).toBe("system:public-info-viewer");
    expect(names(viewer.subjects)).toEqual(["system:authenticated", "partners", "system:unauthenticated"]);
    expect(await k("get", "role", "-n", "kube-system", "system::leader-locking-kube-scheduler", "-o", "name")).toBe(
      "role.rbac.authorization.k8s.io/system::leader-locking-kube-scheduler\n",
    );
  });
});
