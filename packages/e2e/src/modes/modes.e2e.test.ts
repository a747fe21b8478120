/**
 * Cluster modes: the same Service scenarios on `npm start` (apiserver, controller-manager,
 * scheduler, 3 simulated Nodes, dry-run kube-proxy) in --mode v4, v6, v4v6 and v6v4, one cluster per mode,
 * one after the other: upstream's 520-case create matrix (the mode's share of it), upgrade and
 * downgrade, headless with and without selector, NodePort, ExternalName, pods of both families
 * -> EndpointSlices per family -> each family's kube-proxy rules; kubectl-run Pods scheduled and
 * made Ready by the simulated kubelet with pod IPs in the mode's order; then the allocation invariants
 * (and IPAddress objects where the allocator makes them).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClientFromKubeconfig, type ApiClient } from "../faults/api-client.ts";
import { checkAllocationInvariants } from "../faults/invariants.ts";
import { eventually } from "@servicenet/testing";
import { startUpCluster, type UpCluster } from "../up/cluster.ts";
import { familiesOf, type Mode } from "./create-matrix.ts";
import { createWebPods, ruleProblems, sliceProblems } from "./endpoints-rules.ts";
import { podsWithKubectl } from "./pods-kubectl.ts";
import { haveKubectl } from "../kubectl/runners.ts";
import { runCreateMatrix } from "./matrix-run.ts";
import { serviceKinds, upgradeAndDowngrade } from "./scenarios.ts";

const modes: Mode[] = ["v4", "v6", "v4v6", "v6v4"];

describe.each(modes)("cluster mode %s (npm start)", (mode) => {
  let cluster: UpCluster;
  let c: ApiClient;
  const summary: string[] = [];
  const fams = familiesOf(mode);
  beforeAll(async () => {
    const t = performance.now();
    // A generous start timeout: on a loaded 2-core machine the controller-manager can take 15 s to sync.
    cluster = await startUpCluster(["--mode", mode], 60_000);
    c = apiClientFromKubeconfig(cluster.kubeconfigPath, 8);
    summary.push(`up in ${Math.round(performance.now() - t)} ms`);
  }, 90_000);
  afterAll(async () => {
    c?.close();
    expect(await cluster?.stop()).toBe(0);
    console.log(`e2e modes ${mode}: ${summary.join("; ")}`);
  });

  it("serves kubernetes.default SingleStack in the primary family", async () => {
    const k = (await c.call("GET", "/api/v1/namespaces/default/services/kubernetes")).body;
    expect(k.spec.ipFamilyPolicy).toBe("SingleStack");
    expect(k.spec.ipFamilies).toEqual([fams[0]]);
    expect(k.spec.clusterIPs).toEqual([fams[0] === "IPv4" ? "10.96.0.1" : "fd00:10:96::1"]);
  });

  it("answers every ipFamilyPolicy x ipFamilies x clusterIPs create as upstream", async () => {
    const t = performance.now();
    const r = await runCreateMatrix(c, mode);
    expect(r.problems.slice(0, 15)).toEqual([]);
    summary.push(
      `matrix ${r.cases} creates (${r.created} created, ${r.refused} refused with upstream's 422) in ${Math.round(performance.now() - t)} ms`,
    );
  });

  it("upgrades SingleStack to PreferDualStack/RequireDualStack and downgrades back", async () => {
    expect(await upgradeAndDowngrade(c, mode)).toEqual([]);
    summary.push(fams.length === 2 ? "upgrade+downgrade ok (secondary freed)" : "PreferDualStack stays single, RequireDualStack refused");
  });

  it("takes headless, NodePort and ExternalName Services and pods of both families to slices and per-family rules", async () => {
    const { problems, nodePort } = await serviceKinds(c, mode);
    expect(problems).toEqual([]);
    await createWebPods(c);
    const t = performance.now();
    const selecting = ["web-ss", "web-pds", "web-hl", "web-np", ...(fams.length === 2 ? ["web-other"] : [])];
    const slices = await eventually(
      async () => {
        const s = await sliceProblems(c, selecting);
        return s.problems.length === 0 ? s : undefined;
      },
      { timeoutMs: 20_000 },
    ).catch(async (e: unknown) => {
      throw new Error(`${String(e)}\n${(await sliceProblems(c, selecting)).problems.join("\n")}`);
    });
    const slicesMs = Math.round(performance.now() - t);
    const ruled = [...selecting, "hl-nosel", "ext", "up-pds", "up-rds"];
    const rules = await eventually(
      async () => {
        const r = await ruleProblems(c, cluster.dir, ruled, "web-np");
        return r.problems.length === 0 ? r : undefined;
      },
      { timeoutMs: 20_000 },
    ).catch(async (e: unknown) => {
      throw new Error(`${String(e)}\n${(await ruleProblems(c, cluster.dir, ruled, "web-np")).problems.join("\n")}`);
    });
    summary.push(
      `${slices.slices} EndpointSlices for ${selecting.length} Services in ${slicesMs} ms, rules (IPv4 ${rules.lines.IPv4} lines, IPv6 ${rules.lines.IPv6}) ` +
        `in ${Math.round(performance.now() - t)} ms with ClusterIPs and NodePort ${nodePort} per family`,
    );
  });

  it.skipIf(!haveKubectl())(
    "runs the tutorial Deployment: Pods Ready with pod IPs in the mode's order, endpoints per family, terminating during a rollout restart",
    async () => {
      const { problems, summary: line } = await podsWithKubectl(cluster.kubeconfigPath, cluster.dir, mode);
      expect(problems.join("\n")).toBe("");
      summary.push(line);
    },
  );

  it("holds no ClusterIP or NodePort twice (and IPAddress objects match, where made)", async () => {
    const { problems, report } = await checkAllocationInvariants(c);
    expect(problems).toEqual([]);
    if (report.ipAddresses > 0) expect(report.missingExamples, "Service IPs without an IPAddress object").toEqual([]);
    summary.push(
      `${report.services} Services hold ${report.clusterIPs} ClusterIPs and ${report.nodePorts} NodePorts, none twice; ${report.ipAddresses} IPAddress objects`,
    );
  });
});
