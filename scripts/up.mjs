#!/usr/bin/env node
// `npm start`: the whole local control plane. Starts `servicenet up` (the apiserver on embedded
// SQLite, or etcd with --datastore-endpoint; every flag is passed through), and once it is ready,
// the controller-manager and a kube-proxy in dry-run mode (rule files, nothing applied), both as
// plain API clients of the kubeconfig it wrote. Ctrl-C stops all three. Ports: scripts/up-ports.mjs.
import { spawn } from "node:child_process";
import path from "node:path";
import { splitUpArgs } from "./up-ports.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
let split;
try {
  split = splitUpArgs(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`servicenet: ${e.message}\n`);
  process.exit(2);
}
const { upArgs: args, proxyArgs } = split;
const dataDirFlag = args.indexOf("--data-dir");
const dataDir = dataDirFlag >= 0 && args[dataDirFlag + 1] ? args[dataDirFlag + 1] : ".servicenet";
const kubeconfig = path.join(dataDir, "kubeconfig");
const children = [];
let stopping = false;

function start(name, file, argv, onLine) {
  const child = spawn(process.execPath, [path.join(root, file), ...argv], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let buf = "";
  child.stdout.on("data", (d) => {
    buf += d.toString();
    let i;
    while ((i = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      process.stdout.write(name === "apiserver" ? `${line}\n` : `[${name}] ${line}\n`);
      onLine?.(line);
    }
  });
  child.stderr.on("data", (d) => process.stderr.write(`[${name}] ${d}`));
  child.on("exit", (code, signal) => {
    if (stopping) return;
    process.stderr.write(`servicenet: ${name} exited (${signal ?? code}); stopping\n`);
    stop(code === 0 ? 1 : (code ?? 1));
  });
  return child;
}

function stop(code = 0) {
  stopping = true;
  let left = children.filter((c) => c.exitCode === null && c.signalCode === null);
  if (left.length === 0) process.exit(code);
  for (const c of left) {
    c.on("exit", () => {
      left = left.filter((x) => x !== c);
      if (left.length === 0) process.exit(code);
    });
    c.kill("SIGTERM");
  }
}

process.once("SIGINT", () => stop(0));
process.once("SIGTERM", () => stop(0));

let clientsStarted = false;
start("apiserver", "packages/apiserver/dist/cmd/servicenet-up.js", args, (line) => {
  if (clientsStarted || !line.startsWith("servicenet ready")) return;
  clientsStarted = true;
  start("controller-manager", "packages/controller-manager/dist/cmd/controller-manager.js", ["--kubeconfig", kubeconfig]);
  start("kube-proxy", "packages/kube-proxy/dist/cmd/main.js", [
    "--kubeconfig",
    kubeconfig,
    "--proxy-mode",
    "iptables",
    "--dry-run",
    path.join(dataDir, "kube-proxy"),
    ...proxyArgs,
  ]);
});
