// WithPriorityAndFairness and WithMaxInFlightLimit on a real server: the classification headers,
// the plain-text 429 with Retry-After for a user over its priority level's seats and queues, and
// system:masters (exempt) never refused.
import { request, type ClientRequest } from "node:http";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually } from "@servicenet/testing";
import { afterEach, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "../../controlplane/apiserver.ts";
import type { FlowControlOptions } from "../../controlplane/flowcontrol.ts";

let api: ApiServer | undefined;
let dir: string | undefined;

afterEach(async () => {
  await api?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  api = undefined;
});

async function start(flowControl: FlowControlOptions): Promise<ApiServer> {
  dir = mkdtempSync(join(tmpdir(), "servicenet-apf-"));
  mkdirSync(join(dir, "data"));
  writeFileSync(join(dir, "data", "tokens.csv"), 'admintoken,admin,admin,"system:masters"\nalicetoken,alice,alice-uid\n');
  api = await startApiServer({
    storage: { backend: "memory" },
    dataDir: join(dir, "data"),
    tls: false,
    port: 0,
    authorizationModes: ["AlwaysAllow"],
    flowControl,
  });
  return api;
}

const get = (a: ApiServer, token: string, path: string): Promise<Response> =>
  fetch(a.url + path, { headers: { Authorization: `Bearer ${token}` } });

/**
 * A create whose body never completes: it holds its seat until the client goes. The flood starts
 * only once the server holds it (`metric` reaches 1), else early requests of the flood could take
 * the seat first.
 */
async function stalledCreate(a: ApiServer, token: string, metric: RegExp): Promise<ClientRequest> {
  const req = stalled(a, token);
  await eventually(async () => metric.test(await (await get(a, "admintoken", "/metrics")).text()), {
    what: "the stalled create holding its seat",
  });
  return req;
}

function stalled(a: ApiServer, token: string): ClientRequest {
  const req = request(a.url + "/api/v1/namespaces/default/services", {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Content-Length": "1000" },
  });
  req.on("error", () => {});
  req.write('{"metadata":');
  return req;
}

async function flood(
  a: ApiServer,
  token: string,
  n: number,
  method = "GET",
): Promise<{ codes: Record<number, number>; rejected: Response | undefined }> {
  const path = a.url + "/api/v1/namespaces/default/services";
  const init = (): RequestInit => ({ method, headers: { Authorization: `Bearer ${token}` }, ...(method === "POST" ? { body: "{}" } : {}) });
  const rs = await Promise.all(Array.from({ length: n }, () => fetch(path, init())));
  const codes: Record<number, number> = {};
  for (const r of rs) codes[r.status] = (codes[r.status] ?? 0) + 1;
  const rejected = rs.find((r) => r.status === 429);
  await Promise.all(rs.filter((r) => r !== rejected).map((r) => r.arrayBuffer()));
  return { codes, rejected };
}

describe("priority and fairness", () => {
  it("names the FlowSchema and priority level of every answer", async () => {
    const a = await start({});
    const r = await get(a, "alicetoken", "/api/v1/namespaces/default/services");
    expect(r.status).toBe(200);
    const fss = (await (await get(a, "admintoken", "/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas")).json()) as {
      items: { metadata: { name: string; uid: string } }[];
    };
    const pls = (await (
      await get(a, "admintoken", "/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations")
    ).json()) as typeof fss;
    const uid = (items: typeof fss.items, name: string): string | undefined => items.find((i) => i.metadata.name === name)?.metadata.uid;
    expect(r.headers.get("x-kubernetes-pf-flowschema-uid")).toBe(uid(fss.items, "global-default"));
    expect(r.headers.get("x-kubernetes-pf-prioritylevel-uid")).toBe(uid(pls.items, "global-default"));
    expect(fss.items.map((i) => i.metadata.name)).toEqual([
      "catch-all",
      "endpoint-controller",
      "exempt",
      "global-default",
      "kube-controller-manager",
      "kube-scheduler",
      "kube-system-service-accounts",
      "probes",
      "service-accounts",
      "system-leader-election",
      "system-node-high",
      "system-nodes",
      "workload-leader-election",
    ]);
    expect(pls.items.map((i) => i.metadata.name)).toEqual([
      "catch-all",
      "exempt",
      "global-default",
      "leader-election",
      "node-high",
      "system",
      "workload-high",
      "workload-low",
    ]);
    const metrics = await (await get(a, "admintoken", "/metrics")).text();
    expect(metrics).toMatch(
      /apiserver_flowcontrol_dispatched_requests_total\{flow_schema="global-default",priority_level="global-default"\} 1/,
    );
    expect(metrics).toMatch(/apiserver_flowcontrol_nominal_limit_seats\{priority_level="workload-low"\} 245/);
  });

  it("answers 429 with Retry-After to a user beyond its seats and queues; system:masters is exempt", async () => {
    // One seat for global-default; a queued request waits 100 ms at most.
    const a = await start({ maxRequestsInflight: 1, maxMutatingRequestsInflight: 0, requestTimeoutMs: 400 });
    const held = await stalledCreate(
      a,
      "alicetoken",
      /apiserver_flowcontrol_current_executing_requests\{[^}]*priority_level="global-default"[^}]*\} 1/,
    );
    const { codes, rejected } = await flood(a, "alicetoken", 120);
    held.destroy();
    expect(codes).toEqual({ 429: 120 });
    expect(rejected!.headers.get("retry-after")).toBe("1");
    expect(rejected!.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await rejected!.text()).toBe("Too many requests, please try again later.\n");
    const admin = await flood(a, "admintoken", 120);
    expect(admin.codes).toEqual({ 200: 120 });
    const metrics = await (await get(a, "admintoken", "/metrics")).text();
    expect(metrics).toMatch(
      /apiserver_flowcontrol_rejected_requests_total\{flow_schema="global-default",priority_level="global-default",reason="(queue-full|time-out)"\} [1-9]/,
    );
  });

  it("with --enable-priority-and-fairness=false, the max-in-flight limit refuses all but system:masters", async () => {
    const a = await start({ enablePriorityAndFairness: false, maxRequestsInflight: 1, maxMutatingRequestsInflight: 1 });
    const held = await stalledCreate(a, "alicetoken", /apiserver_current_inflight_requests\{request_kind="mutating"\} 1/);
    const { codes, rejected } = await flood(a, "alicetoken", 60, "POST");
    held.destroy();
    expect(codes).toEqual({ 429: 60 });
    expect(await rejected!.text()).toBe("Too many requests, please try again later.\n");
    expect(rejected!.headers.has("x-kubernetes-pf-flowschema-uid")).toBe(false);
    expect((await flood(a, "admintoken", 60, "POST")).codes[429]).toBeUndefined();
  });
});
