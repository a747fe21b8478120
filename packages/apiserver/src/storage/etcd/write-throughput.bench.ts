/**
 * A small hand-run measurement of the etcd write path (not part of `npm run bench`): creates/s of
 * ~1 KB objects through a Store at several concurrencies, and how many distinct resourceVersions
 * the writes got (every write must get its own). Needs a running etcd:
 *
 *   SERVICENET_ETCD_ENDPOINTS=http://127.0.0.1:2379 \
 *     node --import ./src/storage/testdata/register-ts.mjs src/storage/etcd/write-throughput.bench.ts [count]
 */
import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import { Etcd3 } from "etcd3";
import { createStore } from "../storage.ts";
import { etcdEndpointsFromEnv } from "../testing.ts";

const endpoints = etcdEndpointsFromEnv();
if (!endpoints) throw new Error("set SERVICENET_ETCD_ENDPOINTS");
const count = Number(process.argv[2] ?? 3000);

const object = (i: number) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: `cm-${i}`, namespace: "bench", annotations: { note: "x".repeat(900) } },
});

async function measure(concurrency: number): Promise<void> {
  const prefix = `/servicenet-measure/${randomUUID()}`;
  const store = await createStore({ backend: "etcd", endpoints: endpoints!, prefix });
  for (let i = 0; i < 200; i++) await store.create(`/registry/configmaps/warm/w-${i}`, object(i));
  let next = 0;
  const rvs: number[] = [];
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const created = await store.create(`/registry/configmaps/bench/cm-${i}`, object(i));
        rvs.push(Number(created.metadata.resourceVersion));
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await store.close();
  const client = new Etcd3({ hosts: endpoints! });
  await client.delete().prefix(prefix).exec();
  client.close();
  const distinct = new Set(rvs).size;
  console.log(
    `concurrency ${String(concurrency).padStart(3)}: ${Math.round(count / seconds)} creates/s, ${distinct}/${count} distinct resourceVersions`,
  );
}

console.log(`etcd ${endpoints.join(",")}, ${count} creates per run, load average ${loadavg()[0]!.toFixed(1)}`);
for (const c of [1, 16, 64, 256]) await measure(c);
