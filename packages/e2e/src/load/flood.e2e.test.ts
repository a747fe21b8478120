/**
 * Flood: one low-privilege user (`edit` in one namespace, through a token) floods `servicenet up`
 * (SQLite, as `npm start` runs it) with concurrent full LISTs of 5,000 Services, one near-limit
 * Service (1.4 MB stored) and 1,000 request bodies that never finish, while an admin
 * (system:masters) and a controller (kube-controller-manager's user: a watch and updates) keep
 * working. The flooder runs in its own process (flooder-process.ts), as another client would; the
 * admin and the controller run here. The flooder must get 429s from API Priority and Fairness, no
 * write of the admin or the controller may be lost, and the admin's p99 stays within 100 ms (within
 * 5 s when the machine was busier than its core count before the flood). Prints the figures, the
 * apiserver's event-loop delay over the flood and the admin's latency as the apiserver saw it
 * (both measured by a probe preloaded into its process).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servicenetUp, startChildApiServer, type ChildApiServer } from "../fuzz/child-apiserver.ts";
import { getJSON, rawClient, type RawClient } from "../fuzz/raw-client.ts";
import {
  aggregateEdit,
  codesText,
  controllerUser,
  editBinding,
  eventLoopProbeArgs,
  floodTokenFile,
  floodTokens,
  lastEventLoop,
  lastTimed,
  loop,
  slowestText,
  timed,
} from "./flood.ts";
import { adminP99GoalMs, adminP99LooseMs, writeFloodResults } from "./flood-results.ts";
import { floodService as service } from "./flooder.ts";
import { flooderMain, startFlooder, type FlooderProcess } from "./flooder-process.ts";
import { openWatchers, waitForAll } from "./watch-fanout.ts";
import { create, percentile, pool } from "./workload.ts";

const objects = Number(process.env["FLOOD_OBJECTS"] ?? 5000);
const floodMs = Number(process.env["FLOOD_MS"] ?? 10_000);
const listers = 30;
const stalled = 1000;
const controlled = 10;

const built = existsSync(servicenetUp) && existsSync(flooderMain);
if (!built) console.warn(`flood: ${servicenetUp} or ${flooderMain} is missing (run the build), skipping`);

describe.skipIf(!built)("flood: one edit user against an admin and a controller", () => {
  let dir: string;
  let server: ChildApiServer;
  let admin: RawClient;
  let flooder: FlooderProcess;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "servicenet-e2e-flood-"));
    const tokens = path.join(dir, "tokens.csv");
    writeFileSync(tokens, floodTokenFile());
    // Ceilings only a stuck server reaches: on a loaded machine the start and the 5,000 creates take minutes.
    server = await startChildApiServer(["--mode", "v4", "--token-auth-file", tokens], 120_000, [
      ...eventLoopProbeArgs(`Bearer ${floodTokens.admin}`),
      ...(process.env["FLOOD_NODE_ARGS"]?.split(" ") ?? []),
    ]);
    admin = rawClient(server.url, server.ca, floodTokens.admin, { maxSockets: 16, timeoutMs: 60_000 });
    for (const ns of ["flood", "workload", "admin"]) await create(admin, "/api/v1/namespaces", JSON.stringify({ metadata: { name: ns } }));
    await aggregateEdit(admin);
    await create(admin, "/apis/rbac.authorization.k8s.io/v1/namespaces/flood/rolebindings", editBinding("flood", "flooder"));
    await create(admin, "/apis/rbac.authorization.k8s.io/v1/namespaces/workload/rolebindings", editBinding("workload", controllerUser));
    const filled = await pool(objects, 16, (i) => create(admin, "/api/v1/namespaces/flood/services", service(`f-${i}`)));
    expect(filled.errors).toEqual([]);
    for (let i = 0; i < controlled; i++) await create(admin, "/api/v1/namespaces/workload/services", service(`w-${i}`));
    flooder = await startFlooder();
  }, 600_000);
  afterAll(async () => {
    flooder?.kill();
    admin?.close();
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("answers the flooder 429, loses no write and keeps the admin's p99 within 100 ms", async () => {
    const controller = rawClient(server.url, server.ca, floodTokens.controller, { maxSockets: 4, timeoutMs: 60_000 });
    const rv = (await getJSON<{ metadata: { resourceVersion: string } }>(admin, "/api/v1/namespaces/workload/services?limit=1")).metadata
      .resourceVersion;
    const watch = await openWatchers(
      server.url,
      server.ca,
      floodTokens.controller,
      `/api/v1/namespaces/workload/services?watch=true&resourceVersion=${rv}&timeoutSeconds=300`,
      1,
      (o) => ((o["metadata"] as { annotations?: Record<string, string> }).annotations ?? {})["gen"],
    );
    const loadBefore = loadavg()[0]!;
    const quietBefore = loadBefore < cpus().length;
    process.kill(server.pid, "SIGUSR2");
    let stop = false;
    const end = Date.now() + floodMs;
    const stopWhen = (): boolean => stop || Date.now() > end;
    try {
      // The flooder is another client (its own process): its LISTs, near-limit create and, a third
      // into the flood (until then the LISTs hold its seats), its stalled bodies.
      const flood = flooder.run({
        url: server.url,
        ca: server.ca,
        token: floodTokens.flooder,
        namespace: "flood",
        listers,
        stalled,
        stalledAfterMs: floodMs / 3,
        floodMs,
      });
      let adminCreates = 0;
      const adminAcked: string[] = [];
      const adminStats = loop(1, stopWhen, async (s) => {
        const n = adminCreates++;
        const r =
          n % 4 === 0
            ? await timed(admin, s, {
                method: "POST",
                path: "/api/v1/namespaces/admin/services",
                headers: { "Content-Type": "application/json", Accept: "application/json" },
                body: service(`a-${n}`),
              })
            : await timed(admin, s, {
                method: "GET",
                path: `/api/v1/namespaces/workload/services/w-${n % controlled}`,
                headers: { Accept: "application/json" },
              });
        if (r.status === 201) adminAcked.push(`a-${n}`);
        await new Promise((res) => setTimeout(res, 10));
      });
      let gen = 0;
      const lastAcked = new Map<string, string>();
      const tags: string[] = [];
      const controllerStats = loop(1, stopWhen, async (s) => {
        const name = `w-${gen % controlled}`;
        const tag = `g${gen++}`;
        const r = await timed(controller, s, {
          method: "PATCH",
          path: `/api/v1/namespaces/workload/services/${name}`,
          headers: { "Content-Type": "application/merge-patch+json", Accept: "application/json" },
          body: JSON.stringify({ metadata: { annotations: { gen: tag } } }),
        });
        if (r.status === 200) {
          lastAcked.set(name, tag);
          tags.push(tag);
        }
      });
      const [adminDone, controllerDone] = await Promise.all([adminStats, controllerStats]);
      process.kill(server.pid, "SIGUSR2");
      const { lists: listStats, stalledCodes, nearLimit: nearLimitRes } = await flood;
      stop = true;
      const missed = await waitForAll(watch, tags, 60_000);
      const adminList = await getJSON<{ items: { metadata: { name: string } }[] }>(admin, "/api/v1/namespaces/admin/services");
      const have = new Set(adminList.items.map((i) => i.metadata.name));
      const lostAdmin = adminAcked.filter((n) => !have.has(n));
      const lostController: string[] = [];
      for (const [name, tag] of lastAcked) {
        const o = await getJSON<{ metadata: { annotations?: Record<string, string> } }>(
          admin,
          `/api/v1/namespaces/workload/services/${name}`,
        );
        if (o.metadata.annotations?.["gen"] !== tag) lostController.push(`${name}: ${tag} != ${o.metadata.annotations?.["gen"]}`);
      }
      await new Promise((r) => setTimeout(r, 200));
      const loopDelay = lastEventLoop(server.output());
      const adminServer = lastTimed(server.output());
      // The apiserver's output (with FLOOD_NODE_ARGS=--trace-gc, its collections) for reading by hand.
      const serverLog = process.env["FLOOD_SERVER_LOG"];
      if (serverLog) writeFileSync(serverLog, server.output());
      const flooder429 = (listStats.codes.get(429) ?? 0) + (stalledCodes.get(429) ?? 0);
      const p = (xs: number[], q: number): string => percentile(xs, q).toFixed(1);
      console.log(
        `e2e flood (${objects} Services, ${listers} listers, ${stalled} stalled bodies, ${floodMs} ms): ` +
          `admin ${adminDone.latencies.length} requests p50 ${p(adminDone.latencies, 50)} ms p99 ${p(adminDone.latencies, 99)} ms max ${p(adminDone.latencies, 100)} ms [${codesText(adminDone.codes)}], ` +
          `in the apiserver ${adminServer?.n} p50 ${adminServer?.p50} ms p99 ${adminServer?.p99} ms max ${adminServer?.max} ms; ` +
          `controller ${controllerDone.latencies.length} patches p50 ${p(controllerDone.latencies, 50)} ms p99 ${p(controllerDone.latencies, 99)} ms [${codesText(controllerDone.codes)}], watch missed ${missed}; ` +
          `flooder lists [${codesText(listStats.codes)}] p50 ${p(listStats.latencies, 50)} ms, stalled bodies [${codesText(stalledCodes)}], near-limit create ${nearLimitRes.status} (${nearLimitRes.bytes} bytes answered), 429s ${flooder429}; ` +
          `load average ${loadBefore.toFixed(1)}; event-loop delay p50 ${loopDelay?.p50} ms p99 ${loopDelay?.p99} ms max ${loopDelay?.max} ms; apiserver RSS ${Math.round(server.rssKiB() / 1024)} MiB`,
      );
      // Stored (or refused by Priority and Fairness), never etcd's 500 for a request over 1.5 MiB.
      expect([201, 429]).toContain(nearLimitRes.status);
      expect([...adminDone.codes.keys()].every((c) => c === 200 || c === 201)).toBe(true);
      expect([...controllerDone.codes.keys()]).toEqual([200]);
      expect(adminDone.errors.concat(controllerDone.errors)).toEqual([]);
      expect(lostAdmin).toEqual([]);
      expect(lostController).toEqual([]);
      expect(missed).toBe(0);
      expect(watch.flatMap((w) => w.problems)).toEqual([]);
      expect(flooder429).toBeGreaterThan(0);
      // The admin's p99 is held to its 100 ms goal when nothing else starves the apiserver of CPU
      // (the load average before the flood below the core count); on a machine busier than that the
      // figure says more about the machine, and only the loose bound (no stall of seconds, as
      // before API Priority and Fairness) is asserted, and the output says so.
      const p99 = percentile(adminDone.latencies, 99);
      console.log(
        `flood: admin p99 ${p99.toFixed(1)} ms against the ${adminP99GoalMs} ms goal: ${p99 <= adminP99GoalMs ? "met" : "NOT met"}; ` +
          `slowest admin requests: ${slowestText(adminDone, 3)}; slowest controller patches: ${slowestText(controllerDone, 3)}`,
      );
      const resultsFile = process.env["FLOOD_RESULTS"];
      if (resultsFile)
        writeFloodResults(resultsFile, {
          adminP50ms: percentile(adminDone.latencies, 50),
          adminP99ms: p99,
          adminRequests: adminDone.latencies.length,
          loopP99ms: loopDelay?.p99,
          loopMaxms: loopDelay?.max,
          adminServerP99ms: adminServer?.p99,
          loadBefore,
          listsDone: listStats.codes.get(200) ?? 0,
        });
      if (quietBefore) expect(p99).toBeLessThanOrEqual(adminP99GoalMs);
      else {
        console.warn(
          `flood: load average ${loadBefore.toFixed(1)} on ${cpus().length} cores before the flood: the admin p99 was held to the loose ${adminP99LooseMs} ms bound, not the ${adminP99GoalMs} ms goal`,
        );
        expect(p99).toBeLessThanOrEqual(adminP99LooseMs);
      }
    } finally {
      stop = true;
      for (const w of watch) w.close();
      controller.close();
    }
  });
});
