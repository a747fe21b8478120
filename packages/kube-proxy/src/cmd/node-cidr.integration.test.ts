/** `--detect-local-mode NodeCIDR` against @servicenet/testing's fake apiserver: waitForPodCIDR, then the rules. */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually, FakeAPIServer } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { noopLogger, textLogger } from "@servicenet/component-base/logs";
import { parseOptions } from "./options.ts";
import { runProxyServer } from "./server.ts";

const node = (podCIDRs: string[] | undefined, rv: string) => ({
  apiVersion: "v1",
  kind: "Node",
  metadata: { name: "node-a", resourceVersion: rv },
  spec: podCIDRs === undefined ? {} : { podCIDR: podCIDRs[0], podCIDRs },
});
const service = {
  apiVersion: "v1",
  kind: "Service",
  metadata: { namespace: "default", name: "kp-web", resourceVersion: "2" },
  spec: {
    type: "ClusterIP",
    clusterIP: "10.96.0.10",
    clusterIPs: ["10.96.0.10"],
    ipFamilies: ["IPv4"],
    ports: [{ name: "http", port: 80, protocol: "TCP" }],
  },
};
const slice = {
  apiVersion: "discovery.k8s.io/v1",
  kind: "EndpointSlice",
  metadata: { namespace: "default", name: "kp-web-1", resourceVersion: "3", labels: { "kubernetes.io/service-name": "kp-web" } },
  addressType: "IPv4",
  endpoints: [{ addresses: ["10.244.1.5"], conditions: { ready: true } }],
  ports: [{ name: "http", port: 80, protocol: "TCP" }],
};
const api = new FakeAPIServer({ objects: [node(undefined, "1"), service, slice] });
let dir = "";
let kubeconfig = "";

beforeAll(async () => {
  const url = await api.start();
  dir = await mkdtemp(join(tmpdir(), "sn-kp-nodecidr-"));
  kubeconfig = join(dir, "kubeconfig");
  await writeFile(
    kubeconfig,
    `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "${url}", insecure-skip-tls-verify: true}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n`,
  );
});
afterAll(async () => {
  await api.stop();
  await rm(dir, { recursive: true, force: true });
});

const argv = (out: string) => [
  "--kubeconfig",
  kubeconfig,
  "--dry-run",
  out,
  "--hostname-override",
  "node-a",
  "--detect-local-mode",
  "NodeCIDR",
  "--metrics-bind-address",
  "",
  "--healthz-bind-address",
  "",
  "--min-sync-period",
  "0s",
];

describe("--detect-local-mode NodeCIDR", { timeout: 120_000 }, () => {
  it("times out with upstream's message while the Node has no podCIDRs", async () => {
    const o = { ...parseOptions(argv(join(dir, "never"))), podCIDRTimeoutMs: 300 };
    await expect(runProxyServer(o, noopLogger)).rejects.toThrow(
      "timeout waiting for PodCIDR allocation to configure detect-local-mode NodeCIDR: timed out waiting for the condition",
    );
  });

  it("waits for the Node's podCIDRs, then detects local traffic by them", async () => {
    const out = join(dir, "rules");
    const logs: string[] = [];
    const starting = runProxyServer(
      parseOptions(argv(out)),
      textLogger((m) => logs.push(m)),
    );
    await eventually(() => logs.includes('"Watching for node, awaiting podCIDR allocation" hostname="node-a"'));
    api.tracker.add([node(["10.244.1.0/24", "fd00:10:244:1::/64"], "4")]);
    const server = await starting;
    try {
      expect(logs).toContain('"NodeInfo" podCIDRs=["10.244.1.0/24","fd00:10:244:1::/64"]');
      const v4 = join(out, "iptables-ipv4.rules");
      await eventually(async () => (await readFile(v4, "utf8").catch(() => "")).includes("KUBE-SERVICES"));
      expect(await readFile(v4, "utf8")).toContain("! -s 10.244.1.0/24 -j KUBE-MARK-MASQ");
    } finally {
      await server.stop();
    }
  });
});
