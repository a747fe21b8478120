/**
 * The client of big-object.bench.ts, in a worker thread: for each round, each step on the
 * near-limit Service, announced to the server's thread before (`start`, answered `go` once its
 * probe is reset) and after (`end`, once the answer and any watch event it causes were read).
 */
import { Agent, request } from "node:http";
import { isMainThread, parentPort, workerData } from "node:worker_threads";

/** The measured steps, in order. */
export const bigObjectSteps = ["create", "get", "list", "patch+watch", "put+watch", "apply", "delete+watch"] as const;
export type Step = (typeof bigObjectSteps)[number];
export type StepMessage = { kind: "start" | "end"; step: Step } | { kind: "done" };

const ns = "default";
const path = `/api/v1/namespaces/${ns}/services`;
const labels = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`l${i.toString(36)}`, "v"]));

interface Answer {
  status: number;
  body: string;
}

function call(agent: Agent, url: string, method: string, body?: string, contentType = "application/json"): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { Accept: "application/json" };
    if (body !== undefined) Object.assign(headers, { "Content-Type": contentType, "Content-Length": Buffer.byteLength(body) });
    const req = request(url, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

interface Event {
  type: string;
  name: string;
  rv: string;
}

/** A watch of the namespace's Services: `until(p)` resolves once an event matching `p` arrived. */
function watch(base: string, rv: string): { until: (p: (e: Event) => boolean) => Promise<void>; close: () => void } {
  const arrived: Event[] = [];
  let waiting: { p: (e: Event) => boolean; r: () => void } | undefined;
  let buf = "";
  const req = request(`${base}${path}?watch=true&resourceVersion=${rv}`, (res) => {
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      buf += chunk;
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const ev = JSON.parse(buf.slice(0, nl)) as { type: string; object: { metadata: { name: string; resourceVersion: string } } };
        buf = buf.slice(nl + 1);
        const e = { type: ev.type, name: ev.object.metadata.name, rv: ev.object.metadata.resourceVersion };
        arrived.push(e);
        if (waiting?.p(e)) waiting.r();
      }
    });
  });
  req.on("error", () => {});
  req.end();
  return {
    until: (p) => (arrived.some(p) ? Promise.resolve() : new Promise((r) => (waiting = { p, r }))),
    close: () => req.destroy(),
  };
}

const rvOf = (a: Answer): string => (JSON.parse(a.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;

function expectStatus(step: string, a: Answer, ...ok: number[]): Answer {
  if (!ok.includes(a.status)) throw new Error(`${step}: HTTP ${a.status}: ${a.body.slice(0, 300)}`);
  return a;
}

async function round(base: string, agent: Agent, r: number, step: (s: Step, f: () => Promise<void>) => Promise<void>): Promise<void> {
  const name = r < 0 ? "big-warm" : `big-${r}`;
  const item = `${base}${path}/${name}`;
  const listRV = rvOf(expectStatus("list", await call(agent, `${base}${path}?limit=1`, "GET"), 200));
  const w = watch(base, listRV);
  const body = { apiVersion: "v1", kind: "Service", metadata: { name, labels }, spec: { selector: { app: name }, ports: [{ port: 80 }] } };
  let current = "";
  await step("create", async () => {
    current = expectStatus("create", await call(agent, `${base}${path}`, "POST", JSON.stringify(body)), 201).body;
    const rv = rvOf({ status: 201, body: current });
    await w.until((e) => e.rv === rv);
  });
  await step("get", async () => void expectStatus("get", await call(agent, item, "GET"), 200));
  await step("list", async () => void expectStatus("list", await call(agent, `${base}${path}`, "GET"), 200));
  await step("patch+watch", async () => {
    const patch = JSON.stringify({ metadata: { annotations: { round: `p${r}` } } });
    current = expectStatus("patch", await call(agent, item, "PATCH", patch, "application/merge-patch+json"), 200).body;
    const rv = rvOf({ status: 200, body: current });
    await w.until((e) => e.rv === rv);
  });
  await step("put+watch", async () => {
    const o = JSON.parse(current) as { metadata: { annotations: Record<string, string> } };
    o.metadata.annotations["round"] = `u${r}`;
    current = expectStatus("put", await call(agent, item, "PUT", JSON.stringify(o)), 200).body;
    const rv = rvOf({ status: 200, body: current });
    await w.until((e) => e.rv === rv);
  });
  await step("apply", async () => {
    const applied = JSON.stringify({ apiVersion: "v1", kind: "Service", metadata: { name, annotations: { applied: `a${r}` } } });
    expectStatus(
      "apply",
      await call(agent, `${item}?fieldManager=bench&force=true`, "PATCH", applied, "application/apply-patch+yaml"),
      200,
    );
  });
  await step("delete+watch", async () => {
    expectStatus("delete", await call(agent, item, "DELETE"), 200);
    await w.until((e) => e.type === "DELETED" && e.name === name);
  });
  w.close();
}

async function run({ url, rounds }: { url: string; rounds: number }): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const go = (): Promise<void> => new Promise((r) => parentPort!.once("message", () => r()));
  const step = async (s: Step, f: () => Promise<void>): Promise<void> => {
    parentPort!.postMessage({ kind: "start", step: s } satisfies StepMessage);
    await go();
    await f();
    parentPort!.postMessage({ kind: "end", step: s } satisfies StepMessage);
    await go();
  };
  // One unmeasured round warms the JIT and the connection.
  await round(url, agent, -1, async (_s, f) => f());
  for (let r = 0; r < rounds; r++) await round(url, agent, r, step);
  agent.destroy();
  parentPort!.postMessage({ kind: "done" } satisfies StepMessage);
}

if (!isMainThread && (workerData as { url?: string } | undefined)?.url) await run(workerData as { url: string; rounds: number });
