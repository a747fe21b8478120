#!/usr/bin/env node
// Pod-ready -> EndpointSlice latency with the real processes: the apiserver (servicenet-up.js on
// SQLite, dual-stack) and the controller-manager (dist/cmd/controller-manager.js, all controllers).
// S dual-stack Services x P pods each are created not ready before the controller-manager starts;
// then every pod is made ready once (a status PUT, as a kubelet would), one change in flight: the
// headline figures, S*P changes. Latency of one change = from the apiserver's response to the
// status update until a watch on EndpointSlices has seen the pod's endpoint ready in the slices of
// both families. A second, paced run (open loop at --rate changes/s) flips --paced pods back to
// not ready (unmeasured) and then to ready, to show queueing. Writes bench/results-pod-ready-latency.json.
//   node bench/pod-ready-latency.bench.mjs [--services 20] [--pods 50] [--paced 300] [--rate 20]
// BENCH_CM_FLAGS="--controllers endpointslice": extra controller-manager flags. BENCH_CPU_PROF=DIR: both processes write V8 CPU profiles there; BENCH_CM_LOG=FILE: the
// controller-manager's log is saved there.
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CoreV1Api, Watch } from "@kubernetes/client-node";
import { pool, runBench, startCluster } from "./processes.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : Number(process.argv[i + 1]);
};
const S = arg("services", 20);
const P = arg("pods", 50);
const PACED = arg("paced", 300);
const RATE = arg("rate", 20);

const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
const round = (x) => Math.round(x * 100) / 100;

/** Tracks, per pod name, in which families its endpoint is ready; resolves waiters when both are. */
function sliceWatcher() {
  const readyIn = new Map(); // pod -> Set(addressType)
  const waiters = new Map(); // pod -> resolve
  let lastEventAt = performance.now();
  const onEvent = (_type, slice) => {
    lastEventAt = performance.now();
    for (const e of slice.endpoints ?? []) {
      const pod = e.targetRef?.name;
      if (pod === undefined) continue;
      let fams = readyIn.get(pod);
      if (fams === undefined) readyIn.set(pod, (fams = new Set()));
      if (e.conditions?.ready === true) fams.add(slice.addressType);
      else fams.delete(slice.addressType);
      if (fams.size === 2) waiters.get(pod)?.(performance.now());
    }
  };
  return {
    onEvent,
    /** Resolves with the time both families showed `pod` ready (now, if they already did). */
    whenReady(pod) {
      if (readyIn.get(pod)?.size === 2) return Promise.resolve(performance.now());
      return new Promise((resolve) => waiters.set(pod, resolve));
    },
    /** Resolves once no slice event came for `ms`. */
    async quiet(ms) {
      while (performance.now() - lastEventAt < ms) await new Promise((r) => setTimeout(r, 100));
    },
  };
}

async function main() {
  const cluster = await startCluster("cm");
  try {
    const kc = cluster.kc;
    const core = kc.makeApiClient(CoreV1Api);

    // Set-up (unmeasured, before the controller-manager runs): Services and not-ready pods.
    for (let s = 0; s < S; s++) {
      await core.createNamespacedService({
        namespace: "default",
        body: {
          metadata: { name: `svc-${s}` },
          spec: {
            ipFamilyPolicy: "RequireDualStack",
            selector: { app: `svc-${s}` },
            ports: [{ name: "http", port: 80, targetPort: 8080 }],
          },
        },
      });
    }
    const pods = [];
    await pool(S * P, 16, async (i) => {
      const name = `pod-${i}`;
      const created = await core.createNamespacedPod({
        namespace: "default",
        body: {
          metadata: { name, labels: { app: `svc-${i % S}` } },
          spec: { containers: [{ name: "c", image: "x", ports: [{ containerPort: 8080 }] }] },
        },
      });
      const v4 = `10.244.${Math.floor(i / 250)}.${(i % 250) + 1}`;
      created.status = {
        phase: "Running",
        podIP: v4,
        podIPs: [{ ip: v4 }, { ip: `fd00:10:244::${(i + 1).toString(16)}` }],
        conditions: [{ type: "Ready", status: "False" }],
      };
      pods[i] = await core.replaceNamespacedPodStatus({ name, namespace: "default", body: created });
    });

    const w = sliceWatcher();
    const req = await new Watch(kc).watch("/apis/discovery.k8s.io/v1/namespaces/default/endpointslices", {}, w.onEvent, () => {});
    // The floor: when the same pod change reaches a watcher of pods (the controller-manager's
    // informer sees it no sooner), without any controller work or slice write.
    const podSeen = new Map(); // pod -> time its Ready=True event arrived
    const podReq = await new Watch(kc).watch(
      "/api/v1/namespaces/default/pods",
      {},
      (_t, pod) => {
        if (pod.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True"))
          podSeen.set(pod.metadata.name, performance.now());
        else podSeen.delete(pod.metadata.name);
      },
      () => {},
    );
    const cm = await cluster.controllerManager(
      (process.env.BENCH_CM_FLAGS ?? "").split(" ").filter(Boolean),
      /"Caches are synced","controller":"endpointslice"/,
    );
    await w.quiet(2000); // the initial slices (all endpoints not ready) are written

    const setReady = async (i, ready) => {
      const pod = pods[i];
      pod.status.conditions = [{ type: "Ready", status: ready ? "True" : "False", lastTransitionTime: new Date() }];
      const sent = performance.now();
      pods[i] = await core.replaceNamespacedPodStatus({ name: pod.metadata.name, namespace: "default", body: pod });
      const acked = performance.now();
      if (!ready) return undefined;
      const seen = await w.whenReady(pod.metadata.name);
      const podEvent = podSeen.get(pod.metadata.name) ?? seen;
      return { fromAck: Math.max(0, seen - acked), fromSend: seen - sent, podWatch: Math.max(0, podEvent - acked) };
    };

    // Headline: every pod made ready once, one change in flight.
    const seq = [];
    for (let i = 0; i < S * P; i++) seq.push(await setReady(i, true));
    // Paced: the first PACED pods back to not ready (unmeasured), then ready again at RATE/s.
    await pool(PACED, 4, (i) => setReady(i, false));
    await w.quiet(2000);
    const paced = [];
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: PACED }, (_, k) =>
        new Promise((r) => setTimeout(r, (k * 1000) / RATE)).then(() => setReady(k, true)).then((x) => paced.push(x)),
      ),
    );
    const pacedSeconds = (performance.now() - t0) / 1000;
    req.abort();
    podReq.abort();
    const retries = (cm.output().match(/"msg":"Error syncing, retrying"/g) ?? []).length;
    console.log(`controller-manager: ${retries} sync retries logged`);
    if (process.env.BENCH_CM_LOG) writeFileSync(process.env.BENCH_CM_LOG, cm.output());

    const label = `pod ready -> EndpointSlice watch (sqlite, dual-stack, ${S} svc x ${P} pods)`;
    const results = [];
    const summarize = (name, rows, field = "fromAck") => {
      const a = rows.map((r) => r[field]).sort((x, y) => x - y);
      const fields = {
        p50: percentile(a, 0.5),
        p99: percentile(a, 0.99),
        max: a[a.length - 1],
        mean: a.reduce((s, x) => s + x, 0) / a.length,
      };
      for (const [metric, value] of Object.entries(fields))
        results.push({ name: `${label} ${name}`, metric, value: round(value), unit: "ms" });
      console.log(`${name}: ${rows.length} changes  p50 ${round(fields.p50)} ms  p99 ${round(fields.p99)} ms  max ${round(fields.max)} ms`);
      return a;
    };
    const all = summarize("sequential", seq);
    summarize(`paced ${RATE}/s`, paced);
    summarize("sequential, pod watch only (floor)", seq, "podWatch");
    results.push({ name: `${label} sequential`, metric: "changes", value: all.length, unit: "" });
    const env = {
      node: process.version,
      cpus: cpus().length,
      cpu: cpus()[0]?.model ?? "",
      loadavg1m: loadavg()[0],
      date: new Date().toISOString(),
      pacedSeconds: round(pacedSeconds),
      controllerManagerRetries: retries,
    };
    writeFileSync(path.join(here, "results-pod-ready-latency.json"), JSON.stringify({ env, results }, null, 2) + "\n");
  } finally {
    await cluster.stop();
  }
}

runBench(main);
