/**
 * The client of bench/hot-requests.bench.ts, in a worker thread so its HTTP work does not compete
 * with the server's main thread: `lanes` keep-alive loops, each writing its own objects the way
 * the pod-lifecycle pipeline does (a kubelet's Lease renewal PUT, its `pods/status` merge patch,
 * the scheduler's `pods/binding`, the event sink's create, the EndpointSlice controller's PUT),
 * and optionally `watchers` watches of the Leases (every event read and dropped).
 */
import { Agent, request } from "node:http";
import { isMainThread, parentPort, workerData } from "node:worker_threads";

export type HotKind = "lease" | "podStatus" | "binding" | "event" | "endpointSlice";

export interface HotJob {
  base: string;
  kind: HotKind;
  /** Requests per lane; every lane owns object `lane` (or, for bindings, Pods `lane`, `lane + lanes`, …). */
  perLane: number;
  lanes: number;
  /** Lease watches open while the requests run. */
  watchers: number;
  /** Prefix of the names of the Pods to bind and the Events to create (fresh ones each round). */
  bindPrefix?: string;
}

interface Obj {
  metadata: { resourceVersion?: string };
  [k: string]: unknown;
}

const ns = "default";
const leasePath = (i: number) => `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-${i}`;
const slicePath = (i: number) => `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices/web-${i}`;
const podPath = (i: number) => `/api/v1/namespaces/${ns}/pods/pod-${i}`;

function send(agent: Agent, base: string, method: string, path: string, body?: unknown, type = "application/json"): Promise<Obj> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? "" : JSON.stringify(body);
    const headers = { "Content-Type": type, "Content-Length": Buffer.byteLength(payload) };
    const req = request(base + path, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString();
        if ((res.statusCode ?? 0) >= 300) reject(new Error(`${method} ${path}: HTTP ${res.statusCode} ${text}`));
        else resolve(JSON.parse(text) as Obj);
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(payload);
  });
}

/** One lane's `n` requests of `kind`, each after the previous one's response. */
async function lane(agent: Agent, job: HotJob, l: number): Promise<void> {
  const { base, kind, perLane, lanes } = job;
  let last: Obj | undefined =
    kind === "lease"
      ? await send(agent, base, "GET", leasePath(l))
      : kind === "endpointSlice"
        ? await send(agent, base, "GET", slicePath(l))
        : undefined;
  for (let k = 0; k < perLane; k++) {
    const t = new Date(Date.UTC(2026, 11, 6, 0, 0, 0, 0) + k * 10_000 + l).toISOString().replace("Z", "000Z");
    if (kind === "lease") {
      last = await send(agent, base, "PUT", leasePath(l), { ...last, spec: { ...(last!["spec"] as object), renewTime: t } });
    } else if (kind === "endpointSlice") {
      const ready = k % 2 === 0;
      const endpoints = [
        {
          addresses: [`10.1.${l % 250}.${(k % 250) + 1}`],
          conditions: { ready, serving: ready, terminating: false },
          nodeName: `node-${l}`,
        },
      ];
      last = await send(agent, base, "PUT", slicePath(l), { ...last, endpoints });
    } else if (kind === "podStatus") {
      const ready = k % 2 === 0 ? "True" : "False";
      const patch = {
        status: { conditions: [{ type: "Ready", status: ready, lastProbeTime: null, lastTransitionTime: t.replace(/\.\d+Z$/, "Z") }] },
      };
      await send(agent, base, "PATCH", `${podPath(l)}/status`, patch, "application/merge-patch+json");
    } else if (kind === "binding") {
      const i = l + k * lanes;
      const name = `${job.bindPrefix ?? "bind"}-${i}`;
      const binding = {
        apiVersion: "v1",
        kind: "Binding",
        metadata: { name },
        target: { apiVersion: "v1", kind: "Node", name: `node-${i % 100}` },
      };
      await send(agent, base, "POST", `/api/v1/namespaces/${ns}/pods/${name}/binding`, binding);
    } else {
      const event = {
        apiVersion: "v1",
        kind: "Event",
        metadata: { name: `pod-${l}.${job.bindPrefix ?? "r"}.${k}`, namespace: ns },
        involvedObject: { apiVersion: "v1", kind: "Pod", namespace: ns, name: `pod-${l}` },
        reason: "Scheduled",
        message: `Successfully assigned ${ns}/pod-${l} to node-${l}`,
        type: "Normal",
        source: { component: "default-scheduler" },
        firstTimestamp: t.replace(/\.\d+Z$/, "Z"),
        lastTimestamp: t.replace(/\.\d+Z$/, "Z"),
        count: 1,
        reportingComponent: "default-scheduler",
      };
      await send(agent, base, "POST", `/api/v1/namespaces/${ns}/events`, event);
    }
  }
}

/** Opens `n` Lease watches; resolves with a closer once each has its response headers. */
async function watch(base: string, n: number): Promise<() => void> {
  const reqs = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<ReturnType<typeof request>>((resolve, reject) => {
          const req = request(`${base}/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases?watch=true`, (res) => {
            res.on("data", () => {});
            res.on("error", () => {});
            resolve(req);
          });
          req.on("error", reject);
          req.end();
        }),
    ),
  );
  return () => reqs.forEach((r) => r.destroy());
}

async function run(job: HotJob): Promise<{ seconds: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: job.lanes });
  const close = await watch(job.base, job.watchers);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: job.lanes }, (_, l) => lane(agent, job, l)));
  const seconds = (performance.now() - t0) / 1000;
  close();
  agent.destroy();
  return { seconds };
}

if (!isMainThread && (workerData as HotJob | undefined)?.kind) parentPort!.postMessage(await run(workerData as HotJob));
