/**
 * RBAC `describe` and `get` against real kubectl 1.33 on the same fake apiserver (serving the four
 * rbac.authorization.k8s.io/v1 resources with @servicenet/printers' Tables), compared byte for
 * byte with the exit code. Skipped (with a warning) without the binary.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultResources, findKubectl, rbacResources, startFakeAPIServer, type FakeAPIServer } from "@servicenet/testing";
import { printerTables } from "../testing/tables.ts";
import { rbacFixtures } from "../testing/fixtures/rbac.ts";
import { runKubectl, writeKubeconfig } from "../testing/kubectl-binary.ts";
import { main } from "./kubectl.ts";

const binary = findKubectl("1.33", { warnAs: "RBAC differential tests" });

let api: FakeAPIServer;
let kubeconfig: string;

beforeAll(async () => {
  api = await startFakeAPIServer({ resources: [...defaultResources, ...rbacResources], objects: rbacFixtures(), table: printerTables });
  kubeconfig = writeKubeconfig(api.url);
});
afterAll(async () => {
  await api.stop();
});

async function ours(argv: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  let stdout = "";
  let stderr = "";
  const code = await main(["--kubeconfig", kubeconfig, ...argv], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: {},
    now: () => new Date(),
  });
  return { stdout, stderr, code };
}

const cases: string[][] = [
  ["describe", "clusterrole", "edit-ish"],
  ["describe", "clusterroles", "monitoring"],
  ["describe", "clusterrole", "empty"],
  ["describe", "clusterrole"],
  ["describe", "clusterrole.rbac.authorization.k8s.io/edit-ish"],
  ["describe", "role", "pod-reader"],
  ["describe", "roles", "-n", "kube-system"],
  ["describe", "role", "-A"],
  ["describe", "rolebinding", "read-pods"],
  ["describe", "rolebindings", "-A"],
  ["describe", "clusterrolebinding", "cluster-admin"],
  ["describe", "clusterrolebindings", "system:"],
  ["describe", "role", "nope"],
  ["get", "clusterroles"],
  ["get", "clusterrole", "edit-ish", "-o", "wide"],
  ["get", "roles", "-A"],
  ["get", "roles", "-o", "wide"],
  ["get", "rolebindings", "-A", "-o", "wide"],
  ["get", "rolebinding", "read-pods"],
  ["get", "clusterrolebindings", "-o", "wide"],
  ["get", "clusterrolebindings", "--show-labels"],
  ["get", "role,rolebinding", "-n", "kube-system"],
  ["get", "clusterroles", "-l", "kubernetes.io/bootstrapping=rbac-defaults", "--no-headers"],
  ["get", "clusterrolebinding", "cluster-admin", "-o", "name"],
];

describe.skipIf(binary === null)("servicenet-kubectl vs kubectl 1.33 on RBAC objects", () => {
  it.each(cases.map((argv) => [argv.join(" "), argv] as const))("%s", async (_name, argv) => {
    const want = await runKubectl(binary!, kubeconfig, argv);
    expect(await ours(argv)).toEqual(want);
  });
});
