/**
 * `kubectl servicenet trace` through real kubectl 1.33: the `kubectl-servicenet` bin of
 * @servicenet/kubectl on PATH is found as a plugin, its `--help` is servicenet-kubectl's, and a
 * trace against the fake apiserver prints what the in-process CLI prints.
 */
import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeAPIServer, type FakeAPIServer } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { binOf } from "../framework/bins.ts";
import { haveKubectl, kubectlBinary, runOurs, type Result } from "./runners.ts";

if (!haveKubectl()) console.warn("kubectl 1.33 not found: skipping the kubectl servicenet plugin e2e");

const objects = [
  {
    apiVersion: "v1",
    kind: "Node",
    metadata: { name: "node-a" },
    spec: { podCIDRs: ["10.244.1.0/24"] },
    status: { addresses: [{ type: "InternalIP", address: "192.168.0.2" }] },
  },
  {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { namespace: "default", name: "client" },
    spec: { nodeName: "node-a", containers: [{ name: "c", image: "pause" }] },
    status: { phase: "Running", podIP: "10.244.1.5", podIPs: [{ ip: "10.244.1.5" }] },
  },
  {
    apiVersion: "v1",
    kind: "Service",
    metadata: { namespace: "default", name: "web" },
    spec: {
      type: "ClusterIP",
      clusterIP: "10.96.0.10",
      clusterIPs: ["10.96.0.10"],
      ipFamilies: ["IPv4"],
      ports: [{ name: "http", port: 80, protocol: "TCP", targetPort: 8080 }],
    },
  },
  {
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata: { namespace: "default", name: "web-1", labels: { "kubernetes.io/service-name": "web" } },
    addressType: "IPv4",
    endpoints: [{ addresses: ["10.244.1.7"], nodeName: "node-a", conditions: { ready: true } }],
    ports: [{ name: "http", port: 8080, protocol: "TCP" }],
  },
];

describe.skipIf(!haveKubectl())("kubectl servicenet (plugin) with kubectl 1.33", () => {
  let api: FakeAPIServer;
  let dir: string;
  let kubeconfig: string;

  /** Real kubectl with the plugin's directory first on PATH and KUBECONFIG set (plugins get no --kubeconfig). */
  const kubectl = (argv: readonly string[]): Promise<Result> =>
    new Promise((resolve) => {
      const env = { ...process.env, PATH: `${dir}:${process.env.PATH ?? ""}`, HOME: dir, KUBECONFIG: kubeconfig, KUBECTL_KUBERC: "false" };
      execFile(kubectlBinary, argv, { env, timeout: 60_000 }, (err, stdout, stderr) =>
        resolve({ code: err === null ? 0 : typeof err.code === "number" ? err.code : 1, stdout, stderr }),
      );
    });

  beforeAll(async () => {
    api = await startFakeAPIServer({ objects });
    dir = mkdtempSync(join(tmpdir(), "sn-plugin-"));
    kubeconfig = join(dir, "config");
    writeFileSync(
      kubeconfig,
      `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: ${api.url}\ncontexts:\n- name: x\n  context:\n    cluster: c\n    user: u\ncurrent-context: x\nusers:\n- name: u\n  user:\n    token: t\n`,
    );
    // What npm's bin link does: an executable named kubectl-servicenet running the package's bin.
    const shim = join(dir, "kubectl-servicenet");
    writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${binOf("@servicenet/kubectl", "kubectl-servicenet")}" "$@"\n`);
    chmodSync(shim, 0o755);
  });
  afterAll(async () => {
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("kubectl plugin list finds kubectl-servicenet", async () => {
    const r = await kubectl(["plugin", "list"]);
    expect(r.stdout).toContain(join(dir, "kubectl-servicenet"));
  });

  it("kubectl servicenet trace --help is servicenet-kubectl's trace help", async () => {
    const ours = await runOurs(kubeconfig, ["trace", "--help"]);
    expect(ours.stdout).toMatch(/^Trace where a new connection goes through a node's kube-proxy rules\.\n/);
    expect(await kubectl(["servicenet", "trace", "--help"])).toEqual({ code: 0, stdout: ours.stdout, stderr: "" });
  });

  it("kubectl servicenet trace prints what servicenet-kubectl trace prints", async () => {
    const argv = ["trace", "pod/client", "svc/web:http", "--cluster-cidr=10.244.0.0/16"];
    const ours = await runOurs(kubeconfig, argv);
    expect(ours.code).toBe(0);
    expect(ours.stdout).toContain("Verdict: delivered to 10.244.1.7:8080, not masqueraded\n");
    expect(await kubectl(["servicenet", ...argv])).toEqual({ code: 0, stdout: ours.stdout, stderr: "" });
  });
});
