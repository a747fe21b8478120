// /debug/api_priority_and_fairness/ on a real server (apf_controller_debug.go's Install): the
// dumps as text, and the non-resource authorization in front of them (system:masters may, a user
// without `get` on the path gets 403).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "../controlplane/apiserver.ts";

let api: ApiServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "servicenet-apf-debug-"));
  mkdirSync(join(dir, "data"));
  writeFileSync(join(dir, "data", "tokens.csv"), 'admintoken,admin,admin,"system:masters"\nalicetoken,alice,alice-uid\n');
  api = await startApiServer({
    storage: { backend: "memory" },
    dataDir: join(dir, "data"),
    tls: false,
    port: 0,
    authorizationModes: ["RBAC"],
  });
});

afterAll(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (token: string, path: string): Promise<Response> => fetch(api.url + path, { headers: { Authorization: `Bearer ${token}` } });

describe("API Priority and Fairness debug dumps", () => {
  it("serves the priority levels to system:masters as text", async () => {
    const r = await get("admintoken", "/debug/api_priority_and_fairness/dump_priority_levels");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const lines = (await r.text()).trimEnd().split("\n");
    expect(lines[0]).toMatch(/^PriorityLevelName, +ActiveQueues, +IsIdle, +IsQuiescing, +WaitingRequests, +ExecutingRequests, /);
    expect(lines.map((l) => l.split(",")[0])).toContain("workload-low");
  });

  it("lists the dumping request itself with its details", async () => {
    const r = await get("admintoken", "/debug/api_priority_and_fairness/dump_requests?includeRequestDetails=1");
    const rows = (await r.text())
      .trimEnd()
      .split("\n")
      .map((l) => l.split(/,\s*/));
    const self = rows.find((c) => c[10] === "admin");
    expect(self?.slice(0, 4)).toEqual(["exempt", "exempt", "-1", "-1"]);
    expect(self?.slice(11, 13)).toEqual(["get", "/debug/api_priority_and_fairness/dump_requests"]);
  });

  it("dumps the queues of every Limited level", async () => {
    const text = await (await get("admintoken", "/debug/api_priority_and_fairness/dump_queues")).text();
    expect(text.split("\n").filter((l) => l.startsWith("workload-low,"))).toHaveLength(128);
  });

  it.each(["dump_priority_levels", "dump_queues", "dump_requests"])("refuses %s to a user without get on the path", async (name) => {
    const r = await get("alicetoken", `/debug/api_priority_and_fairness/${name}`);
    expect(r.status).toBe(403);
    const status = (await r.json()) as { message: string };
    expect(status.message).toBe(`forbidden: User "alice" cannot get path "/debug/api_priority_and_fairness/${name}"`);
  });

  it("answers 404 for a path under the prefix that is no dump", async () => {
    expect((await get("admintoken", "/debug/api_priority_and_fairness/dump_flows")).status).toBe(404);
  });
});
