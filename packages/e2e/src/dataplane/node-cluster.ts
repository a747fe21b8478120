/**
 * The real control plane of the cluster in n1's namespace (`ip netns exec <n1> node
 * packages/.../dist/...`): the apiserver on n1's 127.0.0.1:6443 (SQLite in a temp dir) and the
 * controller-manager as its API client over HTTPS; and one kube-proxy per node, in its node's
 * namespace, with that node's name and IPs.
 *
 * The test process stays in the root namespace, where the node's loopback is unreachable. It talks
 * to the apiserver through a bridge that needs no change to the root namespace: a forwarder in the
 * node namespace accepts on a unix socket (the filesystem is shared across namespaces) and connects
 * to 127.0.0.1:6443 there; the test listens on its own 127.0.0.1:<random> and pipes to that socket.
 * The other nodes' kube-proxies reach it the same way: a forwarder on their own 127.0.0.1:6443
 * connects to that socket. The serving certificate has 127.0.0.1 in its SANs, so one kubeconfig
 * works everywhere.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, connect, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { apiserverBin, controllerManagerBin, kubeProxyBin } from "../framework/bins.ts";
import { clusterCIDRs, serviceCIDRs, type NodeNet, type Topology } from "./netns.ts";
import { startInNetns, type NetnsProcess } from "../framework/netns-process.ts";
import { forwarder } from "./scripts.ts";

export { apiserverBin, controllerManagerBin, kubeProxyBin };

export interface NodeCluster {
  readonly dir: string;
  /** For the test process (root namespace), through the bridge. */
  readonly kubeConfig: KubeConfig;
  readonly processes: NetnsProcess[];
  /** ms from spawning the apiserver to the last kube-proxy's start line. */
  readonly startMs: number;
  /** Stops every process (kube-proxy first), closes the bridge, removes the temp dir. */
  stop(): Promise<string[]>;
}

/**
 * Starts apiserver and controller-manager in n1's namespace and a kube-proxy (`mode`) on every node
 * of `t`. Aborting `signal` (a test hook that gave up) stops what is running and starts nothing
 * more: the returned promise then rejects once every process has stopped.
 */
export async function startNodeCluster(
  t: Topology,
  mode: "iptables" | "nftables",
  prefix: string,
  signal?: AbortSignal,
): Promise<NodeCluster> {
  const ns = t.node;
  const t0 = performance.now();
  const dir = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
  const processes: NetnsProcess[] = [];
  const sockets = new Set<Socket>();
  let bridge: Server | undefined;
  const stop = async (): Promise<string[]> => {
    const codes: string[] = [];
    for (const p of [...processes].reverse()) codes.push(`${p.name}=${await p.stop()}`);
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => (bridge === undefined ? r() : bridge.close(() => r())));
    rmSync(dir, { recursive: true, force: true });
    return codes;
  };
  const start = (where: string, name: string, args: readonly string[]): NetnsProcess => {
    signal?.throwIfAborted();
    const p = startInNetns(where, name, args);
    processes.push(p);
    return p;
  };
  // Stopping the processes fails the pending waitFor at once, which ends in the catch below.
  const onAbort = () => void Promise.all(processes.map((p) => p.stop()));
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const kubeconfig = path.join(dir, "kubeconfig");
    const api = start(ns, "apiserver", [
      apiserverBin,
      "--port",
      "6443",
      "--bind-address",
      "127.0.0.1",
      "--data-dir",
      dir,
      "--service-cluster-ip-range",
      `${serviceCIDRs.v4},${serviceCIDRs.v6}`,
    ]);
    await api.waitFor(/servicenet ready/);
    const sock = path.join(dir, "api.sock");
    const fwd = start(ns, "api-forwarder", ["-e", forwarder, sock, "6443"]);
    await fwd.waitFor(/forwarding/);
    bridge = await listenBridge(sock, sockets);
    const port = (bridge.address() as { port: number }).port;
    const kubeConfig = new KubeConfig();
    const text = readFileSync(kubeconfig, "utf8");
    if (!text.includes("https://127.0.0.1:6443")) throw new Error(`unexpected kubeconfig server:\n${text}`);
    kubeConfig.loadFromString(text.replace("https://127.0.0.1:6443", `https://127.0.0.1:${port}`));
    const cm = start(ns, "controller-manager", [controllerManagerBin, "--kubeconfig", kubeconfig]);
    await cm.waitFor(/Caches are synced.*endpointslice/);
    // n1 reaches the apiserver on its own loopback; the other nodes through the socket.
    const fwds = t.nodes.slice(1).map((node) => start(node.ns, `api-forwarder ${node.name}`, ["-e", forwarder, "6443", sock]));
    await Promise.all(fwds.map((f) => f.waitFor(/forwarding/)));
    const proxies = t.nodes.map((node) => start(node.ns, `kube-proxy ${node.name}`, kubeProxyArgs(node, mode, kubeconfig)));
    await Promise.all(proxies.map((kp) => kp.waitFor(/servicenet-kube-proxy: \w+ mode/)));
    signal?.throwIfAborted();
    return { dir, kubeConfig, processes, startMs: performance.now() - t0, stop };
  } catch (e) {
    await stop();
    throw e;
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}

function kubeProxyArgs(node: NodeNet, mode: "iptables" | "nftables", kubeconfig: string): string[] {
  return [
    kubeProxyBin,
    "--kubeconfig",
    kubeconfig,
    "--proxy-mode",
    mode,
    "--hostname-override",
    node.name,
    "--cluster-cidr",
    clusterCIDRs,
    "--node-ip",
    `${node.ip.v4},${node.ip.v6}`,
    "--metrics-bind-address",
    "127.0.0.1:10249",
  ];
}

function listenBridge(sock: string, sockets: Set<Socket>): Promise<Server> {
  const server = createServer((c) => {
    const u = connect(sock);
    sockets.add(c).add(u);
    c.pipe(u).pipe(c);
    const done = () => (sockets.delete(c), sockets.delete(u), c.destroy(), u.destroy());
    c.on("error", done).on("close", done);
    u.on("error", done).on("close", done);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}
