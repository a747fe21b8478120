// The FlowSchemas' Dangling condition (apf_controller.go): the condition itself, and the config
// controller of a real server writing it as priority levels come and go.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FlowSchema } from "@servicenet/api/flowcontrol/v1";
import { eventually } from "@servicenet/testing";
import { afterEach, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "../../controlplane/apiserver.ts";
import { desiredDanglingCondition, withCondition } from "./dangling.ts";

const now = new Date("2026-12-05T10:00:00.700Z");
const fs = (pl: string, conditions?: NonNullable<FlowSchema["status"]>["conditions"]): FlowSchema => ({
  apiVersion: "flowcontrol.apiserver.k8s.io/v1",
  kind: "FlowSchema",
  metadata: { name: "fs" },
  spec: { priorityLevelConfiguration: { name: pl }, matchingPrecedence: 500 },
  ...(conditions ? { status: { conditions } } : {}),
});

describe("desiredDanglingCondition", () => {
  it.each([
    [
      "a missing level",
      fs("nope"),
      {
        type: "Dangling",
        status: "True",
        lastTransitionTime: "2026-12-05T10:00:00Z",
        reason: "NotFound",
        message: 'This FlowSchema references the PriorityLevelConfiguration object named "nope" but there is no such object',
      },
    ],
    [
      "an existing level",
      fs("workload-low"),
      {
        type: "Dangling",
        status: "False",
        lastTransitionTime: "2026-12-05T10:00:00Z",
        reason: "Found",
        message: 'This FlowSchema references the PriorityLevelConfiguration object named "workload-low" and it exists',
      },
    ],
    [
      "a condition already right",
      fs("workload-low", [
        {
          type: "Dangling",
          status: "False",
          lastTransitionTime: "2020-01-01T00:00:00Z",
          reason: "Found",
          message: 'This FlowSchema references the PriorityLevelConfiguration object named "workload-low" and it exists',
        },
      ]),
      undefined,
    ],
  ])("%s", (_name, obj, want) => {
    expect(desiredDanglingCondition(obj, new Set(["workload-low"]), now)).toEqual(want);
  });

  it("replaces the Dangling condition in place and keeps the others", () => {
    const other = { type: "Other", status: "True" as const };
    const old = { type: "Dangling", status: "True" as const, reason: "NotFound" };
    const cond = desiredDanglingCondition(fs("workload-low"), new Set(["workload-low"]), now)!;
    expect(withCondition(fs("workload-low", [old, other]), cond).status?.conditions).toEqual([cond, other]);
  });
});

describe("the config controller", () => {
  let api: ApiServer | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await api?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("writes Dangling True while a FlowSchema's level is missing and False once it exists", async () => {
    dir = mkdtempSync(join(tmpdir(), "servicenet-dangling-"));
    mkdirSync(join(dir, "data"));
    writeFileSync(join(dir, "data", "tokens.csv"), 'admintoken,admin,admin,"system:masters"\n');
    api = await startApiServer({ storage: { backend: "memory" }, dataDir: join(dir, "data"), tls: false, port: 0, flowControl: {} });
    const base = `${api.url}/apis/flowcontrol.apiserver.k8s.io/v1`;
    const headers = { Authorization: "Bearer admintoken", "Content-Type": "application/json" };
    const post = (path: string, body: unknown): Promise<Response> =>
      fetch(`${base}/${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    expect((await post("flowschemas", fs("later"))).status).toBe(201);
    const dangling = async (): Promise<{ status?: string; reason?: string } | undefined> => {
      const o = (await (await fetch(`${base}/flowschemas/fs`, { headers })).json()) as FlowSchema;
      return o.status?.conditions?.find((c) => c.type === "Dangling");
    };
    await eventually(async () => (await dangling())?.reason === "NotFound", { timeoutMs: 30_000, intervalMs: 50 });
    expect((await dangling())?.status).toBe("True");
    const pl = {
      apiVersion: "flowcontrol.apiserver.k8s.io/v1",
      kind: "PriorityLevelConfiguration",
      metadata: { name: "later" },
      spec: { type: "Limited", limited: { nominalConcurrencyShares: 5, limitResponse: { type: "Reject" } } },
    };
    expect((await post("prioritylevelconfigurations", pl)).status).toBe(201);
    await eventually(async () => (await dangling())?.reason === "Found", { timeoutMs: 30_000, intervalMs: 50 });
    expect((await dangling())?.status).toBe("False");
    // The suggested bootstrap schemas get theirs too.
    const cm = (await (await fetch(`${base}/flowschemas/global-default`, { headers })).json()) as FlowSchema;
    expect(cm.status?.conditions?.find((c) => c.type === "Dangling")?.reason).toBe("Found");
  });
});
