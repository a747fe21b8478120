/**
 * core/v1 Secrets and ServiceAccounts over HTTP as kube-apiserver 1.33 answers: stringData folded
 * into base64 data, `type` defaulted to Opaque and selectable, ValidateSecret's per-type 422s,
 * `type` immutable, a ServiceAccount's secret references cut to their names
 * (pkg/registry/core/secret and serviceaccount strategy.go), their Tables, and real kubectl's
 * `create secret generic|tls|docker-registry`, `create serviceaccount`, `get`, `describe`.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kubectl133, startTestServer, type TestServer } from "./testing.ts";

const base = "/api/v1/namespaces/default/secrets";
const saBase = "/api/v1/namespaces/default/serviceaccounts";
type Status = { code: number; reason: string; message: string };
type Secret = { metadata: { name: string }; type?: string; data?: Record<string, string>; stringData?: unknown };
const b64 = (s: string): string => Buffer.from(s).toString("base64");
const secret = (name: string, rest: Record<string, unknown> = {}) => ({ apiVersion: "v1", kind: "Secret", metadata: { name }, ...rest });

describe("Secrets and ServiceAccounts", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("folds stringData into data on create and update, defaults type to Opaque and never returns stringData", async () => {
    const created = await s.send("POST", base, secret("fold", { data: { a: b64("1"), b: b64("2") }, stringData: { a: "over" } }));
    expect(created.status).toBe(201);
    const got = created.json() as Secret;
    expect(got).toMatchObject({ type: "Opaque", data: { a: b64("over"), b: b64("2") } });
    expect(got.stringData).toBeUndefined();
    const updated = await s.send("PUT", `${base}/fold`, secret("fold", { data: { a: b64("x") }, stringData: { c: "3" } }));
    expect(updated.status).toBe(200);
    expect((updated.json() as Secret).data).toEqual({ a: b64("x"), c: b64("3") });
    const patched = await s.send("PATCH", `${base}/fold`, { stringData: { d: "4" } }, "application/merge-patch+json");
    expect(patched.status).toBe(200);
    expect((patched.json() as Secret).data).toEqual({ a: b64("x"), c: b64("3"), d: b64("4") });
  });

  it("data that is not base64 is the decoder's 400", async () => {
    const r = await s.send("POST", base, secret("b64", { data: { k: "AA=A" } }));
    expect(r.status).toBe(400);
    expect((r.json() as Status).message).toBe('Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 2');
  });

  it("validates per type: tls keys required, docker config JSON, type immutable", async () => {
    const tls = await s.send("POST", base, secret("tls", { type: "kubernetes.io/tls", stringData: { "tls.crt": "c" } }));
    expect(tls.status).toBe(422);
    expect((tls.json() as Status).message).toBe('Secret "tls" is invalid: data[tls.key]: Required value');
    const docker = await s.send(
      "POST",
      base,
      secret("dock", { type: "kubernetes.io/dockerconfigjson", stringData: { ".dockerconfigjson": "bad" } }),
    );
    expect((docker.json() as Status).message).toBe(
      `Secret "dock" is invalid: data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character 'b' looking for beginning of value`,
    );
    expect((await s.send("POST", base, secret("typed", { type: "kubernetes.io/basic-auth", stringData: { username: "u" } }))).status).toBe(
      201,
    );
    const changed = await s.send("PUT", `${base}/typed`, secret("typed", { type: "Opaque", stringData: { username: "u" } }));
    expect(changed.status).toBe(422);
    expect((changed.json() as Status).message).toBe('Secret "typed" is invalid: type: Invalid value: "Opaque": field is immutable');
  });

  it("selects by type and prints NAME TYPE DATA AGE", async () => {
    const list = (await s.send("GET", `${base}?fieldSelector=type%3Dkubernetes.io%2Fbasic-auth`)).json() as { items: Secret[] };
    expect(list.items.map((i) => i.metadata.name)).toEqual(["typed"]);
    expect((await s.send("GET", `${base}?fieldSelector=data.x%3Dy`)).status).toBe(400);
    const r = await s.request(`${base}/typed`, { headers: { Accept: "application/json;as=Table;v=v1;g=meta.k8s.io" } });
    const table = r.json() as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
    expect(table.columnDefinitions.map((c) => c.name)).toEqual(["Name", "Type", "Data", "Age"]);
    expect(table.rows[0]?.cells.slice(0, 3)).toEqual(["typed", "kubernetes.io/basic-auth", 1]);
  });

  it("a ServiceAccount's secret references keep only their names; SECRETS counts them", async () => {
    const body = {
      apiVersion: "v1",
      kind: "ServiceAccount",
      metadata: { name: "robot" },
      secrets: [{ name: "s1", kind: "Secret", uid: "u" }],
    };
    const created = await s.send("POST", saBase, body);
    expect(created.status).toBe(201);
    expect((created.json() as { secrets: unknown[] }).secrets).toEqual([{ name: "s1" }]);
    const bad = await s.send("POST", saBase, { ...body, metadata: { name: "Robot" } });
    expect(bad.status).toBe(422);
    const r = await s.request(`${saBase}/robot`, { headers: { Accept: "application/json;as=Table;v=v1;g=meta.k8s.io" } });
    const table = r.json() as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
    expect(table.columnDefinitions.map((c) => c.name)).toEqual(["Name", "Secrets", "Age"]);
    expect(table.rows[0]?.cells.slice(0, 2)).toEqual(["robot", 1]);
  });

  it.skipIf(kubectl133 === "")("real kubectl 1.33 creates, gets and describes secrets and service accounts", async () => {
    const ok = async (args: string[]): Promise<string> => {
      const r = await s.kubectl(args);
      expect(r.code, r.stderr).toBe(0);
      return r.stdout;
    };
    expect(await ok(["create", "secret", "generic", "lit", "--from-literal=user=admin", "--from-literal=pass=s3cr3t!"])).toBe(
      "secret/lit created\n",
    );
    expect(await ok(["get", "secret", "lit", "-o", "jsonpath={.data.pass}"])).toBe(b64("s3cr3t!"));
    expect(await ok(["get", "secret", "lit"])).toMatch(/^NAME\s+TYPE\s+DATA\s+AGE\nlit\s+Opaque\s+2\s+\d+s\n$/);
    const described = await ok(["describe", "secret", "lit"]);
    // kubectl's describer ranges over the data map, in Go's random map order.
    const [head, data] = described.split("Data\n====\n");
    expect(head).toMatch(/^Name:\s+lit\nNamespace:\s+default\nLabels:\s+<none>\nAnnotations:\s+<none>\n\nType:\s+Opaque\n\n$/);
    expect(data?.split("\n").sort()).toEqual(["", "pass:  7 bytes", "user:  5 bytes"]);
    expect(
      await ok(["create", "secret", "docker-registry", "reg", "--docker-server=r.example", "--docker-username=u", "--docker-password=p"]),
    ).toBe("secret/reg created\n");
    const dir = mkdtempSync(join(tmpdir(), "tls-"));
    try {
      execFileSync(
        "openssl",
        [
          "req",
          "-x509",
          "-newkey",
          "ec",
          "-pkeyopt",
          "ec_paramgen_curve:P-256",
          "-nodes",
          "-days",
          "1",
          "-subj",
          "/CN=t",
          "-keyout",
          join(dir, "k.pem"),
          "-out",
          join(dir, "c.pem"),
        ],
        { stdio: "ignore" },
      );
      expect(await ok(["create", "secret", "tls", "cert", `--cert=${join(dir, "c.pem")}`, `--key=${join(dir, "k.pem")}`])).toBe(
        "secret/cert created\n",
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(await ok(["get", "secrets", "reg", "cert", "--no-headers", "-o", "custom-columns=N:.metadata.name,T:.type"])).toMatch(
      /^reg\s+kubernetes.io\/dockerconfigjson\ncert\s+kubernetes.io\/tls\n$/,
    );
    expect(await ok(["create", "serviceaccount", "builder"])).toBe("serviceaccount/builder created\n");
    expect(await ok(["get", "sa", "builder"])).toMatch(/^NAME\s+SECRETS\s+AGE\nbuilder\s+0\s+\d+s\n$/);
  });
});
