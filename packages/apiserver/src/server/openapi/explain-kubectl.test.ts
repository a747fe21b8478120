/**
 * Runs the real kubectl against a tiny node:http server that serves these
 * handlers and the minimal discovery kubectl needs, and checks what
 * `kubectl explain` prints. Skipped (with a warning) when kubectl is missing.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { findKubectl } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as core from "@servicenet/api/core/v1";
import * as net from "@servicenet/api/networking/v1";
import { createOpenAPIHandlers } from "./handlers.ts";
import type { OpenAPIResource } from "./resource.ts";

const kubectl = findKubectl("1.33", { warnAs: "kubectl explain test" }) ?? "";
const haveKubectl = kubectl !== "";

const resources: OpenAPIResource[] = [
  {
    group: "",
    version: "v1",
    kind: "Service",
    resource: "services",
    namespaced: true,
    schema: core.ServiceSchema,
    listSchema: core.ServiceListSchema,
    subresources: ["status"],
  },
  {
    group: "networking.k8s.io",
    version: "v1",
    kind: "ServiceCIDR",
    resource: "servicecidrs",
    namespaced: false,
    schema: net.ServiceCIDRSchema,
    listSchema: net.ServiceCIDRListSchema,
    subresources: ["status"],
  },
];

const verbs = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];
const discovery: Record<string, unknown> = {
  "/version": { major: "1", minor: "33", gitVersion: "v1.33.0", platform: "linux/amd64" },
  "/api": { kind: "APIVersions", versions: ["v1"], serverAddressByClientCIDRs: [] },
  "/apis": {
    kind: "APIGroupList",
    apiVersion: "v1",
    groups: [
      {
        name: "networking.k8s.io",
        versions: [{ groupVersion: "networking.k8s.io/v1", version: "v1" }],
        preferredVersion: { groupVersion: "networking.k8s.io/v1", version: "v1" },
      },
    ],
  },
  "/api/v1": {
    kind: "APIResourceList",
    groupVersion: "v1",
    resources: [{ name: "services", singularName: "service", namespaced: true, kind: "Service", verbs, shortNames: ["svc"] }],
  },
  "/apis/networking.k8s.io/v1": {
    kind: "APIResourceList",
    groupVersion: "networking.k8s.io/v1",
    resources: [{ name: "servicecidrs", singularName: "servicecidr", namespaced: false, kind: "ServiceCIDR", verbs }],
  },
};

describe.skipIf(!haveKubectl)("kubectl explain against the generated OpenAPI", () => {
  const handlers = createOpenAPIHandlers(resources);
  const requests: string[] = [];
  let server: Server;
  let kubeconfig = "";
  let cacheDir = "";

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(`${req.method} ${req.url} ${req.headers.accept ?? ""}`);
      if (req.method === "POST") {
        // Enough of "create" for kubectl: echo the object back.
        let body = "";
        req.on("data", (c: Buffer) => (body += c.toString()));
        req.on("end", () => res.writeHead(201, { "Content-Type": "application/json" }).end(body));
        return;
      }
      const r = handlers.handle(req.url ?? "/", req.headers.accept);
      if (r) {
        res.writeHead(r.status, r.headers).end(r.body);
        return;
      }
      const body = discovery[(req.url ?? "").split("?")[0] ?? ""];
      if (body === undefined)
        res
          .writeHead(404, { "Content-Type": "application/json" })
          .end('{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}');
      else res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    const dir = mkdtempSync(join(tmpdir(), "openapi-kubectl-"));
    kubeconfig = join(dir, "kubeconfig");
    cacheDir = join(dir, "cache");
    writeFileSync(
      kubeconfig,
      `apiVersion: v1\nkind: Config\nclusters:\n- name: t\n  cluster:\n    server: http://127.0.0.1:${port}\ncontexts:\n- name: t\n  context:\n    cluster: t\nusers: []\ncurrent-context: t\n`,
    );
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  afterAll(() => {
    if (process.env.OPENAPI_DEBUG) console.log(requests.join("\n"));
  });

  const run = async (...args: string[]): Promise<string> => runWith(kubectl, ...args);
  const runWith = async (binary: string, ...args: string[]): Promise<string> => {
    const { stdout } = await promisify(execFile)(binary, ["--kubeconfig", kubeconfig, "--cache-dir", cacheDir, ...args], {
      timeout: 20000,
    });
    return stdout;
  };

  it("explain service.spec.ipFamilyPolicy prints type, enum and upstream's description", async () => {
    const out = await run("explain", "service.spec.ipFamilyPolicy");
    expect(out).toContain("KIND:       Service");
    expect(out).toContain("VERSION:    v1");
    expect(out).toContain("FIELD: ipFamilyPolicy <string>");
    expect(out).toMatch(/ENUM:\s+PreferDualStack\s+RequireDualStack\s+SingleStack/);
    expect(out).toContain("IPFamilyPolicy represents the dual-stack-ness requested or required by");
    expect(requests.some((r) => r.startsWith("GET /openapi/v3/api/v1?hash="))).toBe(true);
  });

  it("explain service prints the kind's description and its fields", async () => {
    const out = await run("explain", "service");
    expect(out).toMatch(/DESCRIPTION:\s+Service is a named abstraction of software service \(for example, mysql\)/);
    expect(out).toMatch(/metadata\s+<ObjectMeta>/);
    expect(out).toMatch(/spec\s+<ServiceSpec>/);
    expect(out).toMatch(/status\s+<ServiceStatus>/);
  });

  it("explain service.metadata.managedFields prints ObjectMeta's and ManagedFieldsEntry's docs, fieldsV1 as <FieldsV1>", async () => {
    const out = await run("explain", "service.metadata.managedFields");
    expect(out).toContain("FIELD: managedFields <[]ManagedFieldsEntry>");
    expect(out).toContain(
      [
        "DESCRIPTION:",
        "    ManagedFields maps workflow-id and version to the set of fields that are",
        "    managed by that workflow. This is mostly for internal housekeeping, and",
        "    users typically shouldn't need to set or understand this field. A workflow",
        "    can be the user's name, a controller's name, or the name of a specific apply",
        '    path like "ci-cd". The set of fields is always in the version that the',
        "    workflow used when modifying the object.",
        "    ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the",
        "    resource that the fieldset applies to.",
      ].join("\n"),
    );
    expect(out).toContain(
      ["  fieldsV1\t<FieldsV1>", '    FieldsV1 holds the first JSON version format as described in the "FieldsV1"', "    type."].join("\n"),
    );
    const meta = await run("explain", "service.metadata.namespace");
    expect(meta).toContain(
      [
        "    Namespace defines the space within which each name must be unique. An empty",
        '    namespace is equivalent to the "default" namespace, but "default" is the',
        "    canonical representation. Not all objects are required to be scoped to a",
        "    namespace - the value of this field for those objects will be empty.",
        "    ",
        "    Must be a DNS_LABEL. Cannot be updated. More info:",
        "    https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces",
      ].join("\n"),
    );
  });

  it("explain service.spec.ports shows the ServicePort type and fields", async () => {
    const out = await run("explain", "service.spec.ports");
    expect(out).toContain("FIELD: ports <[]ServicePort>");
    expect(out).toMatch(/port\s+<integer> -required-/);
    // IntOrString is `type: string, format: int-or-string`; kubectl's v3 template prints a non-object $ref by its type.
    expect(out).toMatch(/targetPort\s+<string>\n\s+Number or name of the port/);
  });

  it("create finds fieldValidation on the PATCH operation and asks the server for strict validation", async () => {
    const file = join(cacheDir, "..", "svc.yaml");
    writeFileSync(file, "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: default\nspec:\n  ports:\n  - port: 80\n");
    const out = await run("create", "-f", file);
    expect(out).toContain("service/web created");
    expect(
      requests.some((r) => r.startsWith("POST /api/v1/namespaces/default/services?fieldManager=kubectl-create&fieldValidation=Strict")),
    ).toBe(true);
  });

  // kubectl 1.27 explains from /openapi/v2 in gnostic protobuf; later versions from /openapi/v3.
  it.each(["1.27", "1.30", "1.32"].filter((v) => findKubectl(v, { warnAs: "kubectl explain test" }) !== null))(
    "kubectl %s explains ipFamilyPolicy too",
    async (v) => {
      const out = await runWith(findKubectl(v)!, "explain", "service.spec.ipFamilyPolicy");
      expect(out).toContain("IPFamilyPolicy represents the dual-stack-ness");
    },
  );

  it.each(["1.27", "1.30"].filter((v) => findKubectl(v) !== null))("kubectl %s create passes its OpenAPI checks", async (v) => {
    const file = join(cacheDir, "..", `svc-${v}.yaml`);
    writeFileSync(
      file,
      `apiVersion: v1\nkind: Service\nmetadata:\n  name: web${v.replace(".", "")}\n  namespace: default\nspec:\n  ports:\n  - port: 80\n`,
    );
    expect(await runWith(findKubectl(v)!, "create", "-f", file)).toContain("created");
  });

  it("explain servicecidr.spec resolves the networking.k8s.io/v1 document", async () => {
    const out = await run("explain", "servicecidr.spec");
    expect(out).toContain("GROUP:      networking.k8s.io");
    expect(out).toMatch(/cidrs\s+<\[\]string>/);
    expect(out).toMatch(/ServiceCIDRSpec define the CIDRs the user wants to use for allocating\s+ClusterIPs for Services\./);
  });
});
