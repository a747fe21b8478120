/**
 * The StatefulSet controller through real kubectl 1.33 (upstream's test/integration/statefulset
 * and the e2e "Basic StatefulSet functionality" flows of test/e2e/apps/statefulset.go): an
 * in-process apiserver with the controller-manager's statefulset, garbage-collector, node IPAM and
 * node lifecycle controllers, the scheduler and 3 simulated Nodes, so Pods are created in order,
 * bound, made Ready and terminated with no hand-written status.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CoreV1Api, KubeConfig, type V1Pod } from "@kubernetes/client-node";
import { startTestEnvironment, type TestEnvironment } from "@servicenet/apiserver/envtest";
import { testEnvironmentControllers } from "@servicenet/controller-manager";
import { testEnvironmentKubelet } from "@servicenet/kubelet";
import { testEnvironmentScheduler } from "@servicenet/scheduler";
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, runKubectl } from "../kubectl/runners.ts";

/** A StatefulSet whose Pods stop at once when deleted (the simulated kubelet's stop-seconds). */
const statefulSet = (name: string, replicas: number, spec: Record<string, unknown> = {}) =>
  JSON.stringify({
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    metadata: { name },
    spec: {
      replicas,
      serviceName: name,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name }, annotations: { "kubelet.servicenet.io/stop-seconds": "0" } },
        spec: { terminationGracePeriodSeconds: 1, containers: [{ name: "c", image: "nginx" }] },
      },
      ...spec,
    },
  });

describe.skipIf(!haveKubectl())("StatefulSet controller with kubectl 1.33", () => {
  let env: TestEnvironment;
  let core: CoreV1Api;
  let dir: string;
  const k = (...argv: string[]) => runKubectl(env.kubeconfigPath, dir, ["-n", "default", ...argv]);
  const kIn = (input: string, ...argv: string[]) => runKubectl(env.kubeconfigPath, dir, ["-n", "default", ...argv], input);
  const allPods = async (app: string): Promise<V1Pod[]> =>
    (await core.listNamespacedPod({ namespace: "default", labelSelector: `app=${app}` })).items.sort((a, b) =>
      (a.metadata?.name ?? "").localeCompare(b.metadata?.name ?? ""),
    );
  const readyTime = (p: V1Pod) => p.status?.conditions?.find((c) => c.type === "Ready" && c.status === "True")?.lastTransitionTime;
  const stsRow = async (name: string) => (await k("get", "sts", name, "--no-headers")).stdout.trim().split(/\s+/).slice(0, 2).join(" ");
  const events = async (name: string) =>
    (
      await k(
        "get",
        "events",
        "--field-selector",
        `involvedObject.name=${name}`,
        "-o",
        "jsonpath={range .items[*]}{.reason} {.message}{'\\n'}{end}",
      )
    ).stdout
      .trim()
      .split("\n")
      .filter((l) => l !== "");

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "e2e-statefulset-"));
    env = await startTestEnvironment({
      controllers: [
        testEnvironmentControllers(["statefulset", "garbagecollector", "nodeipam", "node-lifecycle-controller"], {
          clusterCIDR: "10.244.0.0/16",
        }),
        testEnvironmentScheduler(),
        testEnvironmentKubelet({ nodes: 3 }),
      ],
    });
    const kc = new KubeConfig();
    kc.loadFromString(env.kubeconfig);
    core = kc.makeApiClient(CoreV1Api);
  }, 120_000);
  afterAll(async () => {
    await env?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it("creates web-0..2 in order with their identity, rolls out, scales down from the top, updates, undoes and cascades on delete", async () => {
    expect(await kIn(statefulSet("web", 3), "create", "-f", "-")).toMatchObject({ code: 0, stdout: "statefulset.apps/web created\n" });
    const sts = JSON.parse((await k("get", "sts", "web", "-o", "json")).stdout) as { metadata: { uid: string } };
    expect(await k("rollout", "status", "sts/web", "--timeout=90s")).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("partitioned roll out complete: 3 new pods have been updated...") as unknown,
    });
    const pods = await allPods("web");
    expect(pods.map((p) => p.metadata?.name)).toEqual(["web-0", "web-1", "web-2"]);
    const revision = JSON.parse((await k("get", "sts", "web", "-o", "jsonpath={.status}")).stdout) as Record<string, unknown>;
    expect(revision).toMatchObject({
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      availableReplicas: 3,
      observedGeneration: 1,
    });
    expect(revision["currentRevision"]).toBe(revision["updateRevision"]);
    pods.forEach((p, i) => {
      expect(p.metadata?.labels).toEqual({
        app: "web",
        "statefulset.kubernetes.io/pod-name": `web-${i}`,
        "apps.kubernetes.io/pod-index": String(i),
        "controller-revision-hash": revision["updateRevision"],
      });
      expect(p.metadata?.generateName).toBe("web-");
      expect([p.spec?.hostname, p.spec?.subdomain]).toEqual([`web-${i}`, "web"]);
      expect(p.metadata?.ownerReferences).toEqual([
        { apiVersion: "apps/v1", kind: "StatefulSet", name: "web", uid: sts.metadata.uid, controller: true, blockOwnerDeletion: true },
      ]);
    });
    // OrderedReady: each Pod was created only once its predecessor was Ready (whole seconds).
    for (let i = 1; i < 3; i++)
      expect(Date.parse(pods[i]!.metadata!.creationTimestamp as unknown as string)).toBeGreaterThanOrEqual(
        Date.parse(String(readyTime(pods[i - 1]!))),
      );
    expect(await stsRow("web")).toBe("web 3/3");
    await eventually(async () => ((await events("web")).length >= 3 ? true : undefined), { timeoutMs: 30_000, what: "3 events" });
    expect((await events("web")).sort()).toEqual(
      [0, 1, 2].map((i) => `SuccessfulCreate create Pod web-${i} in StatefulSet web successful`),
    );
    const crs = (await k("get", "controllerrevisions", "--no-headers")).stdout.trim().split(/\s+/);
    expect(crs.slice(0, 3)).toEqual([revision["updateRevision"], "statefulset.apps/web", "1"]);

    // Scale down to 1: web-2 goes first, then web-1.
    expect(await k("scale", "sts", "web", "--replicas=1")).toMatchObject({ code: 0, stdout: "statefulset.apps/web scaled\n" });
    await eventually(async () => (await allPods("web")).length === 1, { timeoutMs: 60_000, what: "web-1 and web-2 deleted" });
    expect((await allPods("web")).map((p) => p.metadata?.name)).toEqual(["web-0"]);
    await eventually(
      async () => ((await events("web")).some((e) => e.startsWith("SuccessfulDelete delete Pod web-1")) ? true : undefined),
      {
        timeoutMs: 30_000,
      },
    );
    expect((await events("web")).filter((e) => e.startsWith("SuccessfulDelete"))).toEqual([
      "SuccessfulDelete delete Pod web-2 in StatefulSet web successful",
      "SuccessfulDelete delete Pod web-1 in StatefulSet web successful",
    ]);

    // A new template: a second revision, web-0 replaced by one at it; history and undo.
    expect((await k("set", "image", "sts/web", "c=nginx:1.27")).code).toBe(0);
    expect((await k("rollout", "status", "sts/web", "--timeout=90s")).stdout).toContain(
      "partitioned roll out complete: 1 new pods have been updated...",
    );
    await eventually(async () => ((await allPods("web"))[0]?.spec?.containers[0]?.image === "nginx:1.27" ? true : undefined), {
      timeoutMs: 60_000,
      what: "web-0 at nginx:1.27",
    });
    const history = await k("rollout", "history", "sts/web");
    expect(history.stdout).toMatch(/^statefulset\.apps\/web\s*\nREVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>\n/);
    expect(await k("rollout", "undo", "sts/web")).toMatchObject({ code: 0, stdout: "statefulset.apps/web rolled back\n" });
    await eventually(
      async () => {
        const [p] = await allPods("web");
        return p?.spec?.containers[0]?.image === "nginx" &&
          p.status?.phase === "Running" &&
          p.metadata?.labels?.["controller-revision-hash"] === revision["updateRevision"]
          ? true
          : undefined;
      },
      { timeoutMs: 60_000, what: "web-0 back at revision 1's template" },
    );
    expect((await k("rollout", "history", "sts/web")).stdout).toMatch(/\n2\s+<none>\n3\s+<none>\n/);

    // Background deletion: the garbage collector deletes the Pods and revisions afterwards.
    expect(await k("delete", "sts", "web")).toMatchObject({ code: 0, stdout: 'statefulset.apps "web" deleted\n' });
    await eventually(async () => (await allPods("web")).length === 0, { timeoutMs: 60_000, what: "web's Pods collected" });
  }, 300_000);

  it("Parallel creates every Pod at once; volumeClaimTemplates fail as upstream's do when claims cannot be created", async () => {
    expect((await kIn(statefulSet("par", 3, { podManagementPolicy: "Parallel" }), "create", "-f", "-")).code).toBe(0);
    await eventually(async () => ((await stsRow("par")) === "par 3/3" ? true : undefined), { timeoutMs: 60_000, what: "par 3/3" });

    const claims = {
      volumeClaimTemplates: [
        { metadata: { name: "data" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } },
      ],
    };
    expect((await kIn(statefulSet("db", 1, claims), "create", "-f", "-")).code).toBe(0);
    // This cluster serves no PersistentVolumeClaims: the claim cannot be created, so neither is the Pod.
    await eventually(async () => ((await events("db")).length >= 2 ? true : undefined), { timeoutMs: 30_000, what: "FailedCreate events" });
    const got = await events("db");
    expect(got).toContain(
      "FailedCreate create Claim data-db-0 for Pod db-0 in StatefulSet db failed error: the server could not find the requested resource",
    );
    expect(got).toContain(
      "FailedCreate create Pod db-0 in StatefulSet db failed error: failed to create PVC data-db-0: the server could not find the requested resource",
    );
    expect(await allPods("db")).toEqual([]);
    expect(await stsRow("db")).toBe("db 0/1");
    expect((await k("delete", "sts", "par", "db")).code).toBe(0);
  }, 240_000);
});
