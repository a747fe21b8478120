/**
 * The official Python client (Debian's python3-kubernetes, run by /usr/bin/python3) against a
 * real `servicenet up` apiserver: CoreV1 CRUD of a Service, a watch from a resource_version
 * (the client sends `watch=True`), server-side apply with `force=True`, and the dynamic client on
 * ServiceCIDRs. Each scenario is one run of python_client.py, which prints what it observed.
 * Skipped, with a warning, without /usr/bin/python3 or its kubernetes module.
 */
import { execFile, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiserverProc, type ApiserverProc } from "../framework/processes.ts";

const python = "/usr/bin/python3";
const script = fileURLToPath(new URL("./python_client.py", import.meta.url));
const probe = spawnSync(python, ["-c", "import kubernetes; print(kubernetes.__version__)"], { encoding: "utf8" });
const havePython = probe.status === 0;
if (!havePython)
  console.warn("python-client: no /usr/bin/python3 with the kubernetes module (apt-get install python3-kubernetes), skipping");

function runScenario(scenario: string, kubeconfig: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) =>
    execFile(python, [script, scenario, kubeconfig, "default"], { timeout: 180_000 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`${scenario}: ${err.message}\n${stderr}`));
      resolve(JSON.parse(stdout) as Record<string, unknown>);
    }),
  );
}

describe.skipIf(!havePython)(`Python client ${probe.stdout.trim()}`, () => {
  let api: ApiserverProc;
  beforeAll(async () => {
    api = await startApiserverProc();
  });
  afterAll(async () => {
    await api?.close();
  });

  it("CoreV1: create, read, list by label, patch, replace and delete a Service", async () => {
    const out = await runScenario("crud", api.kubeconfigPath);
    expect(out).toMatchObject({
      created: { name: "py-crud", families: ["IPv4"] },
      read_uid_matches: true,
      listed: ["py-crud"],
      patched_labels: { app: "py", tier: "web" },
      replaced_port: 8080,
      kept_clusterIP: true,
      deleted_kind: "Service",
      after_delete: 404,
    });
    expect((out["created"] as { clusterIP: string }).clusterIP).toMatch(/^10\.96\./);
  });

  it("watch=True from a list's resource_version sees ADDED, MODIFIED and DELETED", async () => {
    const out = await runScenario("watch", api.kubeconfigPath);
    expect(out).toEqual({
      events: [
        ["ADDED", "py-watch"],
        ["MODIFIED", "py-watch"],
        ["DELETED", "py-watch"],
      ],
      finished: true,
    });
  });

  it("server-side apply: a second manager gets 409, then takes the field with force=True", async () => {
    const out = await runScenario("apply", api.kubeconfigPath);
    expect(out).toEqual({
      first_labels: { tier: "a" },
      conflict: 409,
      conflict_reason: "Conflict",
      forced_labels: { tier: "b" },
      managers: ["py-first", "py-second"],
    });
  });

  it("the dynamic client discovers, creates, reads, lists and deletes a ServiceCIDR", async () => {
    const out = await runScenario("servicecidrs", api.kubeconfigPath);
    expect(out).toEqual({
      namespaced: false,
      name: "servicecidrs",
      created_cidrs: ["10.123.0.0/24"],
      got_name: "py-cidr",
      listed: ["kubernetes", "py-cidr"],
    });
  });
});
