#!/usr/bin/env node
/**
 * `servicenet up` (`npm start`): the apiserver on embedded SQLite in ./.servicenet (or etcd with
 * --datastore-endpoint), a kubeconfig for kubectl, and a ready line. Ctrl-C stops cleanly; the
 * next start keeps all data. With --workers N, N apiserver processes share the port and the
 * datastore (controlplane/workers.ts).
 */
import { jsonLogger } from "@servicenet/component-base/logs";
import { writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { auditConfigFromFlags } from "../audit/options.ts";
import { prepareDataDir, startApiServer } from "../controlplane/apiserver.ts";
import { parseUpOptions, usage, type UpOptions } from "../controlplane/options.ts";
import { isWorker, reportReady, runWorkers, type WorkerReady } from "../controlplane/workers.ts";
import { allocatorMode, formatFeatureGates } from "../features/kube-features.ts";
import { serviceClusterIPRangesFor } from "../registry/core/rest/service-ip-allocators.ts";
import { normalizeEtcdPrefix, registryRoot, type StoreConfig } from "../storage/index.ts";

/**
 * With several workers each one's watches see the others' SQLite writes only by polling the log:
 * 50 ms instead of kine's 1 s keeps a watch through one worker close behind a write through another.
 */
const workerPollIntervalMs = 50;

function storageFor(o: UpOptions): StoreConfig {
  const common = { compaction: { intervalMs: 5 * 60_000 }, etcdPrefix: o.etcdPrefix };
  if (o.datastoreEndpoints.length > 0) return { backend: "etcd", endpoints: o.datastoreEndpoints, ...common };
  return {
    backend: "sqlite",
    path: join(o.dataDir, "state.db"),
    ...common,
    ...(o.workers > 1 ? { pollIntervalMs: workerPollIntervalMs } : {}),
  };
}

function untilSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

/** Writes the kubeconfig and prints the ready line. */
function announce(o: UpOptions, r: Omit<WorkerReady, "type">, started: number): void {
  const kubeconfigPath = join(o.dataDir, "kubeconfig");
  writeFileSync(kubeconfigPath, r.kubeconfig, { mode: 0o600 });
  // Each component under its own identity (identities.ts), as kubeadm's controller-manager.conf.
  writeFileSync(join(o.dataDir, "controller-manager.kubeconfig"), r.componentKubeconfigs.controllerManager, { mode: 0o600 });
  writeFileSync(join(o.dataDir, "kube-proxy.kubeconfig"), r.componentKubeconfigs.kubeProxy, { mode: 0o600 });
  writeFileSync(join(o.dataDir, "scheduler.kubeconfig"), r.componentKubeconfigs.scheduler, { mode: 0o600 });
  const rel = relative(process.cwd(), kubeconfigPath) || kubeconfigPath;
  const ms = Math.round(performance.now() - started);
  const root = normalizeEtcdPrefix(o.etcdPrefix);
  const datastore =
    (o.datastoreEndpoints.length > 0 ? `etcd ${o.datastoreEndpoints.join(",")}` : `sqlite ${join(o.dataDir, "state.db")}`) +
    (root === registryRoot ? "" : ` under ${root || "/"}`);
  const workers = o.workers > 1 ? `, ${o.workers} workers` : "";
  process.stdout.write(
    `servicenet ready in ${ms} ms: apiserver ${r.url} (${datastore}${workers}, mode ${o.mode}, service CIDRs ${o.serviceClusterIPRanges.join(",")}, allocator ${r.allocatorMode}: ${formatFeatureGates(o.featureGates)})\n` +
      `  kubeconfig: ${rel}\n  try: kubectl --kubeconfig ${rel} get svc -A\n`,
  );
}

async function serve(o: UpOptions, started: number): Promise<number> {
  const audit = auditConfigFromFlags(o.auditPolicyFile, o.auditLogPath);
  const api = await startApiServer({
    storage: storageFor(o),
    dataDir: o.dataDir,
    tls: true,
    host: o.bindAddress,
    ...(o.advertiseAddress !== undefined ? { advertiseAddress: o.advertiseAddress } : {}),
    port: o.port,
    serviceClusterIPRange: o.serviceClusterIPRanges.join(","),
    serviceNodePortRange: o.serviceNodePortRange,
    emulatedVersion: o.emulatedVersion,
    featureGates: o.featureGates,
    repairIntervalMs: o.repairIntervalMs,
    runtimeConfig: o.runtimeConfig,
    ...(o.workers > 1 ? { sharedMasterLease: true } : {}),
    ...(o.tokenAuthFile !== undefined ? { tokenAuthFile: o.tokenAuthFile } : {}),
    ...(o.clientCAFile !== undefined ? { clientCAFile: o.clientCAFile } : {}),
    anonymousAuth: o.anonymousAuth,
    authorizationModes: o.authorizationModes,
    ...(o.authorizationWebhook ? { authorizationWebhook: o.authorizationWebhook } : {}),
    admissionPlugins: o.admissionPlugins,
    podAdmission: o.podAdmission,
    ...(o.admissionControlConfigFile !== undefined ? { admissionControlConfigFile: o.admissionControlConfigFile } : {}),
    enableAggregatorRouting: o.enableAggregatorRouting,
    ...(o.serviceAccounts ? { serviceAccounts: o.serviceAccounts } : {}),
    // Errors and warnings always, info lines from V(2), request lines (upstream's httplog) from V(3).
    logger: jsonLogger("apiserver", { verbosity: o.verbosity }),
    flowControl: {
      enablePriorityAndFairness: o.enablePriorityAndFairness,
      maxRequestsInflight: o.maxRequestsInflight,
      maxMutatingRequestsInflight: o.maxMutatingRequestsInflight,
    },
    ...(audit ? { audit } : {}),
  });
  const ready = {
    url: api.url,
    kubeconfig: api.kubeconfig(),
    componentKubeconfigs: api.componentKubeconfigs(),
    allocatorMode: api.serviceAllocators.mode,
  };
  // Handlers first: a supervisor may send SIGINT/SIGTERM the moment it reads the ready line, and
  // a signal with no handler yet would kill the process without closing the server and the store.
  const signalled = untilSignal();
  if (isWorker()) reportReady(ready);
  else announce(o, ready, started);
  await signalled;
  if (!isWorker()) process.stdout.write("servicenet: stopping\n");
  await api.close();
  audit?.backend.shutdown();
  return 0;
}

async function main(argv: readonly string[]): Promise<number> {
  const started = performance.now();
  let o: UpOptions;
  try {
    o = parseUpOptions(argv);
  } catch (e) {
    process.stderr.write(`servicenet: ${e instanceof Error ? e.message : String(e)}\n\n${usage}`);
    return 2;
  }
  if (o.help) {
    process.stdout.write(usage);
    return 0;
  }
  try {
    serviceClusterIPRangesFor(o.serviceClusterIPRanges.join(","), allocatorMode(o.featureGates));
  } catch (e) {
    process.stderr.write(`servicenet: ${(e as Error).message}\n`);
    return 2;
  }
  if (o.workers === 1 || isWorker()) return serve(o, started);
  prepareDataDir(o.dataDir, { tls: true, host: o.bindAddress, serviceClusterIPRange: o.serviceClusterIPRanges.join(",") });
  const code = await runWorkers({
    count: o.workers,
    onReady: (r) => announce(o, r, started),
    logger: jsonLogger("apiserver", { verbosity: o.verbosity }),
  });
  process.stdout.write("servicenet: stopped\n");
  return code;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`servicenet: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
