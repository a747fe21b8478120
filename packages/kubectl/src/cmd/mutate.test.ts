/**
 * create/apply/delete and get -w through main() against the fake apiserver
 * (@servicenet/testing's FakeAPIServer). The wording is kubectl 1.33's, as observed with the real
 * binary against the servicenet apiserver (the e2e differential test checks
 * it byte for byte); here the flows and exit codes are pinned.
 */
import type { PartialObjectMetadata } from "@servicenet/api";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeAPIServer, type FakeAPIServer } from "@servicenet/testing";
import { printerTables } from "../testing/tables.ts";
import { writeKubeconfig } from "../testing/kubectl-binary.ts";
import { applyConflictHint } from "./create-apply.ts";
import { main } from "./kubectl.ts";

let api: FakeAPIServer;
let dir: string;
let kubeconfig: string;

const manifest = `apiVersion: v1
kind: Service
metadata: {name: web}
spec: {ports: [{port: 80}]}
---
apiVersion: v1
kind: List
items:
- {apiVersion: networking.k8s.io/v1, kind: ServiceCIDR, metadata: {name: extra}, spec: {cidrs: [10.100.0.0/24]}}
`;

async function run(argv: string[], stdin = "", signal?: AbortSignal, onOut?: (s: string) => void) {
  let stdout = "";
  let stderr = "";
  const code = await main(["--kubeconfig", kubeconfig, ...argv], {
    stdout: { write: (s: string) => ((stdout += s), onOut?.(stdout)) },
    stderr: { write: (s: string) => (stderr += s) },
    env: {},
    stdin: async () => stdin,
    ...(signal ? { signal } : {}),
  });
  return { code, stdout, stderr };
}

beforeAll(async () => {
  api = await startFakeAPIServer({ table: printerTables });
  kubeconfig = writeKubeconfig(api.url);
  dir = mkdtempSync(join(tmpdir(), "servicenet-kubectl-mutate-"));
  writeFileSync(join(dir, "m.yaml"), manifest);
});
beforeEach(() => api.reset([]));
afterAll(async () => {
  await api.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("create -f", () => {
  it("creates every document and List item, then reports each AlreadyExists with the source", async () => {
    const file = join(dir, "m.yaml");
    expect(await run(["create", "-f", file])).toEqual({
      code: 0,
      stdout: "service/web created\nservicecidr.networking.k8s.io/extra created\n",
      stderr: "",
    });
    expect(api.tracker.all().map((o) => `${o.kind}/${o.metadata?.namespace ?? ""}/${o.metadata?.name ?? ""}`)).toEqual([
      "Service/default/web",
      "ServiceCIDR//extra",
    ]);
    expect(await run(["create", "-f", file])).toEqual({
      code: 1,
      stdout: "",
      stderr: `Error from server (AlreadyExists): error when creating "${file}": services "web" already exists\nError from server (AlreadyExists): error when creating "${file}": servicecidrs.networking.k8s.io "extra" already exists\n`,
    });
  });

  it("reads stdin as STDIN, JSON too", async () => {
    const json = JSON.stringify({ apiVersion: "v1", kind: "Service", metadata: { name: "j", namespace: "kube-system" }, spec: {} });
    expect((await run(["create", "-f", "-"], json)).stdout).toBe("service/j created\n");
    const again = await run(["create", "-f", "-"], json);
    expect(again.stderr).toBe('Error from server (AlreadyExists): error when creating "STDIN": services "j" already exists\n');
  });

  it.each([
    [["create"], "", "error: must specify one of -f and -k\n"],
    [["create", "-f", "-"], "", "error: no objects passed to create\n"],
    [["create", "-f", "/nonexistent.yaml"], "", 'error: the path "/nonexistent.yaml" does not exist\n'],
    [
      ["create", "-f", "-"],
      "apiVersion: v1\nkind: Frob\nmetadata: {name: f}\n",
      'error: resource mapping not found for name: "f" namespace: "" from "STDIN": no matches for kind "Frob" in version "v1"\nensure CRDs are installed first\n',
    ],
    [
      ["create", "-f", "-", "-n", "default"],
      "apiVersion: v1\nkind: Service\nmetadata: {name: x, namespace: other}\n",
      `error: the namespace from the provided object "other" does not match the namespace "default". You must pass '--namespace=other' to perform this operation.\n`,
    ],
  ])("%j fails: %s", async (argv, stdin, stderr) => {
    expect(await run(argv, stdin)).toEqual({ code: 1, stdout: "", stderr });
  });
});

describe("apply -f (server-side)", () => {
  it("applies with field manager kubectl, conflicts for another manager, and forces", async () => {
    const file = join(dir, "m.yaml");
    expect(await run(["apply", "--server-side", "-f", file])).toEqual({
      code: 0,
      stdout: "service/web serverside-applied\nservicecidr.networking.k8s.io/extra serverside-applied\n",
      stderr: "",
    });
    expect(api.requests.filter((r) => r.startsWith("PATCH")).at(0)).toBe(
      "PATCH /api/v1/namespaces/default/services/web?fieldManager=kubectl&fieldValidation=Strict&force=false",
    );
    const svcOnly = manifest.split("---")[0] ?? "";
    const conflict = await run(["apply", "-f", "-", "--field-manager", "other"], svcOnly);
    expect(conflict).toEqual({
      code: 1,
      stdout: "",
      stderr: `error: Apply failed with 1 conflict: conflict with "kubectl": .spec\n${applyConflictHint}\n`,
    });
    expect((await run(["apply", "-f", "-", "--field-manager=other", "--force-conflicts"], svcOnly)).stdout).toBe(
      "service/web serverside-applied\n",
    );
  });

  it("refuses an object without a name", async () => {
    expect(await run(["apply", "-f", "-"], "apiVersion: v1\nkind: Service\nmetadata: {}\n")).toEqual({
      code: 1,
      stdout: "",
      stderr: "error: resource name may not be empty\n",
    });
  });
});

describe("delete", () => {
  it("deletes by TYPE NAME, TYPE/NAME and -f; NotFound unless --ignore-not-found", async () => {
    await run(["create", "-f", join(dir, "m.yaml")]);
    expect(await run(["delete", "svc", "web", "nope"])).toEqual({
      code: 1,
      stdout: 'service "web" deleted\n',
      stderr: 'Error from server (NotFound): services "nope" not found\n',
    });
    expect(await run(["delete", "servicecidr/extra"])).toEqual({
      code: 0,
      stdout: 'servicecidr.networking.k8s.io "extra" deleted\n',
      stderr: "",
    });
    expect(await run(["delete", "svc", "web", "--ignore-not-found"])).toEqual({ code: 0, stdout: "", stderr: "" });
    const file = join(dir, "m.yaml");
    expect((await run(["delete", "-f", file])).stderr).toBe(
      `Error from server (NotFound): error when deleting "${file}": services "web" not found\nError from server (NotFound): error when deleting "${file}": servicecidrs.networking.k8s.io "extra" not found\n`,
    );
  });

  it.each([
    [[], "Background"],
    [["--cascade"], "Background"],
    [["--cascade=foreground"], "Foreground"],
    [["--cascade=orphan"], "Orphan"],
    [["--cascade=background"], "Background"],
    [["--cascade=false"], "Orphan"],
    [["--cascade=true"], "Background"],
  ])("delete %j sends propagationPolicy %s (kubectl's GetCascadingStrategy)", async (flags, policy) => {
    api.reset([{ apiVersion: "v1", kind: "Service", metadata: { name: "web", namespace: "default" }, spec: { ports: [{ port: 80 }] } }]);
    expect(await run(["delete", "svc", "web", ...flags])).toEqual({ code: 0, stdout: 'service "web" deleted\n', stderr: "" });
    const del = api.writes.filter((w) => w.verb === "delete").at(-1);
    expect(del?.body).toMatchObject({ propagationPolicy: policy });
  });

  it("refuses an unknown --cascade value as kubectl does", async () => {
    expect(await run(["delete", "svc", "web", "--cascade=sideways"])).toEqual({
      code: 1,
      stdout: "",
      stderr: 'error: invalid cascade value (sideways). Must be "background", "foreground", or "orphan"\n',
    });
  });

  it("waits for finalizers unless --wait=false", async () => {
    api.reset([{ apiVersion: "networking.k8s.io/v1", kind: "ServiceCIDR", metadata: { name: "held", finalizers: ["x/y"] } }]);
    expect(await run(["delete", "servicecidr", "held", "--wait=false"])).toEqual({
      code: 0,
      stdout: 'servicecidr.networking.k8s.io "held" deleted\n',
      stderr: "",
    });
    const waiting = run(["delete", "servicecidr", "held"]);
    await new Promise((r) => setTimeout(r, 300));
    api.reset([]);
    expect((await waiting).code).toBe(0);
  });

  it.each([
    [["delete"], "error: You must provide one or more resources by argument or filename."],
    [["delete", "svc"], "error: resource(s) were provided, but no name was specified"],
    [["delete", "frobs", "x"], 'error: the server doesn\'t have a resource type "frobs"'],
    [["delete", "svc", "x", "-A"], "error: a resource cannot be retrieved by name across all namespaces"],
  ])("%j fails", async (argv, first) => {
    const r = await run(argv);
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")[0]).toBe(first);
  });
});

describe("get -w", () => {
  it("prints the table, then one row per event, until aborted", async () => {
    const svc = {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "a", namespace: "default", creationTimestamp: new Date().toISOString() },
      spec: { type: "ClusterIP", clusterIP: "10.0.0.1", ports: [{ port: 80, protocol: "TCP" }] },
    };
    api.reset([svc]);
    const ac = new AbortController();
    let seen = "";
    const watching = run(["get", "svc", "-w"], "", ac.signal, (s) => (seen = s));
    while (!seen.includes("a ")) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    await run(
      ["create", "-f", "-"],
      "apiVersion: v1\nkind: Service\nmetadata: {name: a-much-longer-name}\nspec: {type: ClusterIP, clusterIP: 10.0.0.2, ports: [{port: 8080, protocol: TCP}]}\n",
    );
    await run(["delete", "svc", "a"]);
    while (seen.split("\n").length < 5) await new Promise((r) => setTimeout(r, 20));
    ac.abort();
    const r = await watching;
    expect(r.code).toBe(0);
    // The event rows keep the widths they grew to (RememberWidths); the header is printed once.
    expect(r.stdout.replace(/\d+s\b/g, "Xs")).toBe(
      [
        "NAME   TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)   AGE",
        "a      ClusterIP   10.0.0.1     <none>        80/TCP    Xs",
        "a-much-longer-name   ClusterIP   10.0.0.2     <none>        8080/TCP   Xs",
        "a                    ClusterIP   10.0.0.1     <none>        80/TCP     Xs",
        "",
      ].join("\n"),
    );
  });

  it("prints several names, then refuses to watch them", async () => {
    const svc = (name: string) => ({
      apiVersion: "v1",
      kind: "Service",
      metadata: { name, namespace: "default", creationTimestamp: new Date().toISOString() },
      spec: { type: "ClusterIP", clusterIP: "10.0.0.1", ports: [{ port: 80, protocol: "TCP" }] },
    });
    api.reset([svc("a"), svc("bb")] as PartialObjectMetadata[]);
    const r = await run(["get", "svc", "a", "bb", "-w"]);
    expect(r.stdout.split("\n").map((l) => l.split(" ")[0])).toEqual(["NAME", "a", "bb", ""]);
    expect(r).toMatchObject({ code: 1, stderr: "error: you may only watch a single resource or type of resource at a time\n" });
  });
});
