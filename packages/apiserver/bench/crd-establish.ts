/**
 * The CRD establishing path, stage by stage, as a client sees it: from POSTing a CRD to
 *   - `created`: the POST's 201,
 *   - `namesAccepted` and `established`: the watch event carrying that condition True (one CRD watch
 *     for the whole run, so no stage pays for opening one),
 *   - `served`: the first successful create of one of its objects (retried at once on 404),
 *   - `discovery`: `/apis/<group>/<version>` lists the resource (asked after `served`),
 *   - `openapi`: `/openapi/v3` names the group version (asked after `served`).
 * Upstream's discovery and OpenAPI controllers update asynchronously; the last two stages are
 * measured, not part of the target.
 */
import type { TestEnvironment } from "../src/envtest/index.ts";

export type Stage = "created" | "namesAccepted" | "established" | "served" | "discovery" | "openapi";
export const stages: readonly Stage[] = ["created", "namesAccepted", "established", "served", "discovery", "openapi"];

/** Milliseconds from the CRD POST to each stage. */
export type StageTimes = Record<Stage, number>;

const crdsPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const ms = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

/** The first time each CRD's conditions turned True, from one watch on every CRD. */
export class ConditionWatch {
  readonly #seen = new Map<string, Map<string, bigint>>();
  readonly #ac = new AbortController();
  #done: Promise<void> = Promise.resolve();

  /** Opens the watch; resolves once the server answered. */
  async start(env: TestEnvironment): Promise<void> {
    const res = await fetch(`${env.url}${crdsPath}?watch=1`, { signal: this.#ac.signal });
    if (res.status !== 200 || !res.body) throw new Error(`watch CRDs: ${res.status}`);
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    this.#done = (async () => {
      let buf = "";
      try {
        for (let r = await reader.read(); !r.done; r = await reader.read()) {
          buf += r.value;
          for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
            this.#record(JSON.parse(buf.slice(0, nl)) as WatchLine);
            buf = buf.slice(nl + 1);
          }
        }
      } catch {
        // aborted by stop()
      }
    })();
  }

  /** When `condition` of CRD `name` was first seen True, waiting for it. */
  async when(name: string, condition: string): Promise<bigint> {
    for (;;) {
      const t = this.#seen.get(name)?.get(condition);
      if (t !== undefined) return t;
      await tick();
    }
  }

  async stop(): Promise<void> {
    this.#ac.abort();
    await this.#done;
  }

  #record(ev: WatchLine): void {
    const name = ev.object.metadata?.name ?? "";
    const now = process.hrtime.bigint();
    let seen = this.#seen.get(name);
    if (seen === undefined) this.#seen.set(name, (seen = new Map()));
    for (const c of ev.object.status?.conditions ?? []) if (c.status === "True" && !seen.has(c.type)) seen.set(c.type, now);
  }
}

interface WatchLine {
  object: { metadata?: { name?: string }; status?: { conditions?: { type: string; status: string }[] } };
}

/** What one CRD needs: its body, the path and body of a first object, its group version. */
export interface CRDProbe {
  name: string;
  crd: unknown;
  objectPath: string;
  object: unknown;
  group: string;
  version: string;
  plural: string;
}

async function status(env: TestEnvironment, path: string, body?: unknown): Promise<number> {
  const res = await fetch(`${env.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await res.text();
  return res.status;
}

async function until(ok: () => Promise<boolean>): Promise<void> {
  while (!(await ok())) await tick();
}

/** POSTs the CRD and times each stage (the watch must be started). */
export async function timeStages(env: TestEnvironment, watch: ConditionWatch, p: CRDProbe): Promise<StageTimes> {
  const t0 = process.hrtime.bigint();
  const code = await status(env, crdsPath, p.crd);
  if (code !== 201) throw new Error(`POST CRD ${p.name}: ${code}`);
  const created = ms(t0);
  await until(async () => (await status(env, p.objectPath, p.object)) === 201);
  const served = ms(t0);
  const since = (t: bigint): number => Number(t - t0) / 1e6;
  const namesAccepted = since(await watch.when(p.name, "NamesAccepted"));
  const established = since(await watch.when(p.name, "Established"));
  await until(async () => {
    const res = await fetch(`${env.url}/apis/${p.group}/${p.version}`);
    const doc = (await res.json()) as { resources?: { name: string }[] };
    return (doc.resources ?? []).some((r) => r.name === p.plural);
  });
  const discovery = ms(t0);
  await until(async () => {
    const res = await fetch(`${env.url}/openapi/v3`);
    const doc = (await res.json()) as { paths?: Record<string, unknown> };
    return `apis/${p.group}/${p.version}` in (doc.paths ?? {});
  });
  return { created, namesAccepted, established, served, discovery, openapi: ms(t0) };
}
