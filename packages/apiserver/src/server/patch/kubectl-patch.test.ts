/**
 * Real kubectl against a one-resource fake REST server whose PATCH and POST
 * go through applyPatch/updateManagedFields: client-side apply (strategic
 * merge patch with $setElementOrder), merge/JSON patch, server-side apply
 * with conflicts and --force-conflicts. Asserts on what kubectl prints and
 * on the stored object. Skipped (with a warning) when kubectl is missing.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StatusError } from "@servicenet/api";
import * as core from "@servicenet/api/core/v1";
import { findKubectl } from "@servicenet/testing";
import { createOpenAPIHandlers } from "../openapi/index.ts";
import { queryBool } from "../query-conversion.ts";
import { applyPatch } from "./apply-patch.ts";
import type { JSONObject } from "./json-value.ts";
import { updateManagedFields } from "./managed-fields.ts";

const kubectl = findKubectl("1.33", { warnAs: "kubectl patch/apply test" }) ?? "";
const haveKubectl = kubectl !== "";

const verbs = ["create", "delete", "get", "list", "patch", "update", "watch"];
const discovery: Record<string, unknown> = {
  "/api": { kind: "APIVersions", versions: ["v1"], serverAddressByClientCIDRs: [] },
  "/apis": { kind: "APIGroupList", apiVersion: "v1", groups: [] },
  "/api/v1": {
    kind: "APIResourceList",
    groupVersion: "v1",
    resources: [{ name: "services", singularName: "service", namespaced: true, kind: "Service", verbs, shortNames: ["svc"] }],
  },
};
const item = "/api/v1/namespaces/default/services/web";

function send(res: ServerResponse, code: number, body: unknown): void {
  res.writeHead(code, { "Content-Type": "application/json" }).end(JSON.stringify(body));
}

describe.skipIf(!haveKubectl)("real kubectl through applyPatch", () => {
  const openapi = createOpenAPIHandlers([
    { group: "", version: "v1", kind: "Service", resource: "services", namespaced: true, schema: core.ServiceSchema },
  ]);
  let stored: JSONObject | undefined;
  let rv = 1;
  let server: Server;
  let dir = "";
  let kubeconfig = "";

  const store = (obj: JSONObject): JSONObject => {
    rv++;
    stored = { ...obj, metadata: { ...(obj.metadata as JSONObject), uid: "u-1", resourceVersion: String(rv), namespace: "default" } };
    return stored;
  };

  const handle = (req: IncomingMessage, res: ServerResponse, body: string): void => {
    const url = new URL(req.url ?? "/", "http://x");
    const r = openapi.handle(req.url ?? "/", req.headers.accept);
    if (r) return void res.writeHead(r.status, r.headers).end(r.body);
    const d = discovery[url.pathname];
    if (d) return send(res, 200, d);
    const manager = url.searchParams.get("fieldManager") ?? "unknown";
    try {
      if (req.method === "GET" && url.pathname === item) {
        if (stored === undefined) throw StatusError.notFound({ group: "", resource: "services" }, "web");
        return send(res, 200, stored);
      }
      if (req.method === "POST" && url.pathname === "/api/v1/namespaces/default/services") {
        return send(res, 201, store(updateManagedFields(undefined, JSON.parse(body) as JSONObject, manager, "Update", "v1", new Date())));
      }
      if (req.method === "PATCH" && url.pathname === item) {
        const result = applyPatch(req.headers["content-type"] ?? "", stored, body, {
          fieldManager: manager,
          force: queryBool(url.searchParams, "force") ?? false,
          schemaKind: "Service",
          apiVersion: "v1",
          now: new Date(),
          groupResource: { group: "", resource: "services" },
          name: "web",
        });
        return send(res, result.created ? 201 : 200, store(result.object));
      }
      send(res, 404, new StatusError("NotFound", "the server could not find the requested resource").status);
    } catch (e) {
      if (!(e instanceof StatusError)) throw e;
      send(res, e.code, e.status);
    }
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => handle(req, res, body));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    dir = mkdtempSync(join(tmpdir(), "patch-kubectl-"));
    kubeconfig = join(dir, "kubeconfig");
    const port = (server.address() as { port: number }).port;
    writeFileSync(
      kubeconfig,
      `apiVersion: v1\nkind: Config\nclusters:\n- name: t\n  cluster:\n    server: http://127.0.0.1:${port}\ncontexts:\n- name: t\n  context:\n    cluster: t\n    namespace: default\nusers: []\ncurrent-context: t\n`,
    );
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const run = (...args: string[]): Promise<{ code: number; out: string }> =>
    new Promise((resolve) => {
      execFile(
        kubectl,
        ["--kubeconfig", kubeconfig, "--cache-dir", join(dir, "cache"), ...args],
        { timeout: 20000 },
        (err, stdout, stderr) => {
          resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr });
        },
      );
    });
  const manifest = (targetPort: number, extraPort = ""): string => {
    const file = join(dir, `svc-${targetPort}${extraPort ? "-2" : ""}.yaml`);
    writeFileSync(
      file,
      `apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector:\n    app: web\n  ports:\n  - name: http\n    port: 80\n    targetPort: ${targetPort}\n${extraPort}`,
    );
    return file;
  };
  const ports = (): JSONObject[] => ((stored?.spec as JSONObject).ports as JSONObject[]) ?? [];
  const managers = (): string[] =>
    (((stored?.metadata as JSONObject).managedFields as JSONObject[]) ?? []).map((m) => `${m.manager as string}/${m.operation as string}`);

  it("client-side apply creates, then configures through a strategic merge patch", async () => {
    expect(await run("apply", "-f", manifest(8080))).toEqual({ code: 0, out: "service/web created\n" });
    const second = await run("apply", "-f", manifest(8081, "  - name: https\n    port: 443\n    targetPort: 8443\n"));
    expect(second).toEqual({ code: 0, out: "service/web configured\n" });
    expect(ports().map((p) => [p.port, p.targetPort])).toEqual([
      [80, 8081],
      [443, 8443],
    ]);
    expect(managers()).toEqual(["kubectl-client-side-apply/Update"]);
  });

  it("client-side apply that drops a port sends $patch: delete and removes it", async () => {
    expect(
      (
        await run(
          "apply",
          "-f",
          manifest(8081, "  - name: https\n    port: 443\n    targetPort: 8443\n  - name: dns\n    port: 53\n    protocol: UDP\n"),
        )
      ).code,
    ).toBe(0);
    expect(ports().map((p) => p.port)).toEqual([80, 443, 53]);
    expect((await run("apply", "-f", manifest(8081, "  - name: https\n    port: 443\n    targetPort: 8443\n"))).out).toBe(
      "service/web configured\n",
    );
    expect(ports().map((p) => p.port)).toEqual([80, 443]);
  });

  it("merge and JSON patch; a failed test prints upstream's text", async () => {
    expect((await run("patch", "svc", "web", "--type=merge", "-p", '{"metadata":{"labels":{"x":"y"}}}')).out).toBe("service/web patched\n");
    expect(
      (await run("patch", "svc", "web", "--type=json", "-p", '[{"op":"replace","path":"/spec/ports/1/targetPort","value":9443}]')).out,
    ).toBe("service/web patched\n");
    expect(ports()[1]?.targetPort).toBe(9443);
    const failed = await run("patch", "svc", "web", "--type=json", "-p", '[{"op":"test","path":"/metadata/name","value":"db"}]');
    expect(failed.code).not.toBe(0);
    expect(failed.out).toContain("The request is invalid: the server rejected our request due to an error in our request");
  });

  it("server-side apply conflicts with another manager's field, and --force-conflicts takes it", async () => {
    await run(
      "patch",
      "svc",
      "web",
      "--type=strategic",
      "--field-manager=tuner",
      "-p",
      '{"spec":{"ports":[{"port":80,"targetPort":7070}]}}',
    );
    expect(ports()[0]?.targetPort).toBe(7070);
    const conflict = await run("apply", "--server-side", "-f", manifest(9090));
    expect(conflict.code).not.toBe(0);
    expect(conflict.out).toContain(
      'Apply failed with 1 conflict: conflict with "tuner" using v1: .spec.ports[port=80,protocol="TCP"].targetPort',
    );
    expect(ports()[0]?.targetPort).toBe(7070);
    expect((await run("apply", "--server-side", "--force-conflicts", "-f", manifest(9090))).out).toBe("service/web serverside-applied\n");
    expect(ports()[0]?.targetPort).toBe(9090);
    expect(managers()).toContain("kubectl/Apply");
    const again = await run("apply", "--server-side", "-f", manifest(9090));
    expect(again).toEqual({ code: 0, out: "service/web serverside-applied\n" });
  });

  it("server-side apply creates a missing object", async () => {
    stored = undefined;
    expect(await run("apply", "--server-side", "-f", manifest(8080))).toEqual({ code: 0, out: "service/web serverside-applied\n" });
    expect(managers()).toEqual(["kubectl/Apply"]);
    expect(ports()).toEqual([{ name: "http", port: 80, targetPort: 8080 }]);
  });
});
