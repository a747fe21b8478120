#!/usr/bin/env node
/**
 * `servicenet up` (`npm start`): the apiserver on embedded SQLite in ./.servicenet (or etcd with
 * --datastore-endpoint), a kubeconfig for kubectl, and a ready line. Ctrl-C stops cleanly; the
 * next start keeps all data. The controller-manager and kube-proxy join here once they exist.
 */
import { writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { startApiServer } from "../controlplane/apiserver.ts";
import { parseUpOptions, usage, type UpOptions } from "../controlplane/options.ts";
import { allocatorMode, formatFeatureGates } from "../features/kube-features.ts";
import { serviceClusterIPRangesFor } from "../registry/core/rest/service-ip-allocators.ts";
import type { StoreConfig } from "../storage/index.ts";

function storageFor(o: UpOptions): StoreConfig {
  if (o.datastoreEndpoints.length > 0) return { backend: "etcd", endpoints: o.datastoreEndpoints, compaction: { intervalMs: 5 * 60_000 } };
  return { backend: "sqlite", path: join(o.dataDir, "state.db"), compaction: { intervalMs: 5 * 60_000 } };
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
  const api = await startApiServer({
    storage: storageFor(o),
    dataDir: o.dataDir,
    tls: true,
    host: o.bindAddress,
    port: o.port,
    serviceClusterIPRange: o.serviceClusterIPRanges.join(","),
    featureGates: o.featureGates,
    repairIntervalMs: o.repairIntervalMs,
  });
  const kubeconfigPath = join(o.dataDir, "kubeconfig");
  writeFileSync(kubeconfigPath, api.kubeconfig(), { mode: 0o600 });
  const rel = relative(process.cwd(), kubeconfigPath) || kubeconfigPath;
  const ms = Math.round(performance.now() - started);
  const datastore = o.datastoreEndpoints.length > 0 ? `etcd ${o.datastoreEndpoints.join(",")}` : `sqlite ${join(o.dataDir, "state.db")}`;
  process.stdout.write(
    `servicenet ready in ${ms} ms: apiserver ${api.url} (${datastore}, mode ${o.mode}, service CIDRs ${o.serviceClusterIPRanges.join(",")}, allocator ${api.serviceAllocators.mode}: ${formatFeatureGates(o.featureGates)})\n` +
      `  kubeconfig: ${rel}\n  try: kubectl --kubeconfig ${rel} get svc -A\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  process.stdout.write("servicenet: stopping\n");
  await api.close();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`servicenet: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
