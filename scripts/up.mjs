#!/usr/bin/env node
// `npm start`: the whole local cluster. Starts `servicenet up` (the apiserver on embedded SQLite,
// or etcd with --datastore-endpoint; every flag is passed through), and once it is ready, the
// controller-manager (with node IPAM), the scheduler, a kubelet running `--nodes` simulated Nodes
// (default 3) and a kube-proxy in dry-run mode (rule files, nothing applied), all plain API clients
// of the kubeconfigs it wrote. Ctrl-C stops them all. Ports: scripts/up-ports.mjs; the cluster
// ranges per --mode: scripts/up-cluster.mjs.
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { clusterArgs } from "./up-cluster.mjs";
import { splitUpArgs } from "./up-ports.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
/**
 * `--build` (what `npm start` passes): builds every package first, quietly, with one progress line
 * instead of the build tool's output (shown only when the build fails).
 */
function build() {
  const started = Date.now();
  process.stdout.write("servicenet: building the packages (nx; the first build takes 30 s to a few minutes, later ones are cached) ...\n");
  const r = spawnSync("npx", ["nx", "run-many", "-t", "build", "--output-style=static"], {
    cwd: root,
    encoding: "utf8",
    env: { NX_DAEMON: "false", NX_NO_CLOUD: "true", NX_TUI: "false", ...process.env },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) {
    process.stderr.write(`${r.stdout ?? ""}${r.stderr ?? ""}servicenet: the build failed (${r.error?.message ?? `exit ${r.status}`})\n`);
    process.exit(1);
  }
  process.stdout.write(`servicenet: built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

let argv = process.argv.slice(2);
if (argv.includes("--build")) {
  argv = argv.filter((a) => a !== "--build");
  build();
}
let split;
let cluster;
try {
  cluster = clusterArgs(argv);
  split = splitUpArgs(cluster.upArgs);
} catch (e) {
  process.stderr.write(`servicenet: ${e.message}\n`);
  process.exit(2);
}
const { upArgs: args, proxyArgs, controllerManagerArgs, controllerManagerPort } = split;
const dataDirFlag = args.indexOf("--data-dir");
const dataDir = dataDirFlag >= 0 && args[dataDirFlag + 1] ? args[dataDirFlag + 1] : ".servicenet";
// Each component under its own identity: servicenet up writes these next to kubectl's admin kubeconfig.
const controllerManagerKubeconfig = path.join(dataDir, "controller-manager.kubeconfig");
const kubeProxyKubeconfig = path.join(dataDir, "kube-proxy.kubeconfig");
const schedulerKubeconfig = path.join(dataDir, "scheduler.kubeconfig");
// The simulated kubelet writes for many Nodes at once; with no Node authorizer to scope a
// system:node:<name> identity, it uses the admin kubeconfig.
const kubeletKubeconfig = path.join(dataDir, "kubeconfig");
// kubeadm's controller-manager flags: the service-account signing key (the apiserver's, given or
// its <data-dir>/pki/sa.key) signs token Secrets' tokens.
const signingKeyFlag = args.indexOf("--service-account-signing-key-file");
const saKeyFile = signingKeyFlag >= 0 && args[signingKeyFlag + 1] ? args[signingKeyFlag + 1] : path.join(dataDir, "pki", "sa.key");
const children = [];
let stopping = false;

/** Writes `stream`'s output line by line, each prefixed (a chunk may end mid-line). */
function pipeLines(stream, out, prefix, onLine) {
  let buf = "";
  stream.on("data", (d) => {
    buf += d.toString();
    let i;
    while ((i = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      out.write(`${prefix}${line}\n`);
      onLine?.(line);
    }
  });
  stream.on("end", () => buf !== "" && out.write(`${prefix}${buf}\n`));
}

function start(name, file, argv, onLine) {
  // Its own process group: Ctrl-C in the terminal reaches only this script, which then stops the
  // clients before the apiserver, so no client sees its watches cut and logs an error on the way out.
  const child = spawn(process.execPath, [path.join(root, file), ...argv], { stdio: ["ignore", "pipe", "pipe"], detached: true });
  children.push(child);
  const prefix = name === "apiserver" ? "" : `[${name}] `;
  pipeLines(child.stdout, process.stdout, prefix, onLine);
  pipeLines(child.stderr, process.stderr, prefix);
  child.on("exit", (code, signal) => {
    if (stopping) return;
    process.stderr.write(`servicenet: ${name} exited (${signal ?? code}); stopping\n`);
    void stop(code === 0 ? 1 : (code ?? 1));
  });
  return child;
}

const running = (c) => c.exitCode === null && c.signalCode === null;

/** SIGTERM to `c`; resolves when it has exited. */
function terminate(c) {
  return new Promise((resolve) => {
    if (!running(c)) return resolve();
    c.once("exit", () => resolve());
    c.kill("SIGTERM");
  });
}

/** Stops the clients (controller-manager, scheduler, kubelet, kube-proxy) first, then the apiserver they watch. */
async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  const [apiserver, ...clients] = children;
  await Promise.all(clients.map(terminate));
  if (apiserver) await terminate(apiserver);
  process.exit(code);
}

// If this script dies without its handlers running, its children (own process groups) must not linger.
process.on("exit", () => {
  for (const c of children) if (running(c)) c.kill("SIGTERM");
});
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));

/** A free loopback port (for the controller-manager when `--port 0` makes every port ephemeral). */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}
const securePort = controllerManagerPort === 0 ? await freePort() : controllerManagerPort;

let clientsStarted = false;
// Webhooks given by clientConfig.service are called at an endpoint (kube-apiserver's
// --enable-aggregator-routing): kube-proxy runs in dry-run here, so nothing routes a ClusterIP on
// this host. First, so that a later --enable-aggregator-routing=false of the user's wins.
const apiserverArgs = ["--enable-aggregator-routing=true", ...args];
start("apiserver", "packages/apiserver/dist/cmd/servicenet-up.js", apiserverArgs, (line) => {
  if (clientsStarted || !line.startsWith("servicenet ready")) return;
  clientsStarted = true;
  // Its "Serving securely on 127.0.0.1:PORT" line says where /healthz and /metrics are.
  start("controller-manager", "packages/controller-manager/dist/cmd/controller-manager.js", [
    "--kubeconfig",
    controllerManagerKubeconfig,
    "--use-service-account-credentials",
    "--service-account-private-key-file",
    saKeyFile,
    "--bind-address",
    "127.0.0.1",
    "--secure-port",
    String(securePort),
    ...cluster.controllerManagerArgs,
    ...controllerManagerArgs,
  ]);
  start("scheduler", "packages/scheduler/dist/cmd/scheduler.js", ["--kubeconfig", schedulerKubeconfig, ...controllerManagerArgs]);
  if (cluster.nodes > 0)
    start("kubelet", "packages/kubelet/dist/cmd/kubelet.js", [
      "--kubeconfig",
      kubeletKubeconfig,
      ...cluster.kubeletArgs,
      ...controllerManagerArgs,
    ]);
  start("kube-proxy", "packages/kube-proxy/dist/cmd/main.js", [
    "--kubeconfig",
    kubeProxyKubeconfig,
    "--proxy-mode",
    "iptables",
    "--dry-run",
    path.join(dataDir, "kube-proxy"),
    ...proxyArgs,
  ]);
});
