/**
 * A fake kube-apiserver on node:http, enough for real kubectl's `describe`
 * and `get` (legacy discovery, GET of objects and lists with equality
 * label/field selectors, as=Table via this package's printers) and for the
 * CLI's create/apply/delete/watch (fake-writes.ts). It
 * exists for differential tests: real kubectl and our describers read the
 * same objects.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { KubeObject } from "../types.ts";
import type { PrintOptions, Table } from "../printers/table.ts";
import { printServiceTable } from "../printers/service.ts";
import { printEndpointSliceTable, printEndpointsTable } from "../printers/endpoints.ts";
import { printIPAddressTable, printServiceCIDRTable } from "../printers/networking.ts";
import { printEventTable, printNamespaceTable, printNodeTable, printPodTable } from "../printers/core.ts";
import { handleWrite, startWatch, type FakeState } from "./fake-writes.ts";

interface ResourceInfo {
  group: string;
  version: string;
  name: string;
  singular: string;
  kind: string;
  namespaced: boolean;
  shortNames?: string[];
  table: (items: never[], opts: PrintOptions) => Table;
}

export const fakeResources: readonly ResourceInfo[] = [
  { group: "", version: "v1", name: "services", singular: "service", kind: "Service", namespaced: true, shortNames: ["svc"], table: printServiceTable },
  { group: "", version: "v1", name: "endpoints", singular: "endpoints", kind: "Endpoints", namespaced: true, shortNames: ["ep"], table: printEndpointsTable },
  { group: "", version: "v1", name: "events", singular: "event", kind: "Event", namespaced: true, shortNames: ["ev"], table: printEventTable },
  { group: "", version: "v1", name: "pods", singular: "pod", kind: "Pod", namespaced: true, shortNames: ["po"], table: printPodTable },
  { group: "", version: "v1", name: "nodes", singular: "node", kind: "Node", namespaced: false, shortNames: ["no"], table: printNodeTable },
  { group: "", version: "v1", name: "namespaces", singular: "namespace", kind: "Namespace", namespaced: false, shortNames: ["ns"], table: printNamespaceTable },
  { group: "discovery.k8s.io", version: "v1", name: "endpointslices", singular: "endpointslice", kind: "EndpointSlice", namespaced: true, table: printEndpointSliceTable },
  { group: "networking.k8s.io", version: "v1", name: "servicecidrs", singular: "servicecidr", kind: "ServiceCIDR", namespaced: false, table: printServiceCIDRTable },
  { group: "networking.k8s.io", version: "v1", name: "ipaddresses", singular: "ipaddress", kind: "IPAddress", namespaced: false, shortNames: ["ip"], table: printIPAddressTable },
];

export interface FakeAPIServer {
  url: string;
  server: Server;
  /** Replaces the served objects (kind and apiVersion pick the resource). */
  setObjects(objects: readonly KubeObject[]): void;
  /** The objects as they are now (after writes). */
  objects(): readonly KubeObject[];
  /** Requests seen, for assertions about what kubectl asked. */
  requests: string[];
  close(): Promise<void>;
}

function send(res: ServerResponse, code: number, body: unknown): void {
  res.writeHead(code, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

function parseSelector(s: string | null): [string, string][] {
  if (s === null || s === "") return [];
  return s.split(",").map((term) => {
    const [k, v] = term.split("=", 2).map((x) => x.replace(/=$/, ""));
    return [k ?? "", v ?? ""];
  });
}

function fieldValue(obj: unknown, path: string): string {
  let cur: unknown = obj;
  for (const part of path.split(".")) cur = (cur as Record<string, unknown> | undefined)?.[part];
  return typeof cur === "string" || typeof cur === "number" || typeof cur === "boolean" ? String(cur) : "";
}

function discovery(r: ResourceInfo): unknown {
  return { name: r.name, singularName: r.singular, namespaced: r.namespaced, kind: r.kind, verbs: ["get", "list"], shortNames: r.shortNames };
}

/** Starts the fake on 127.0.0.1 with an ephemeral port. */
export async function startFakeAPIServer(initial: readonly KubeObject[] = [], now: () => Date = () => new Date()): Promise<FakeAPIServer> {
  const state: FakeState = { objects: [...initial], managers: new Map(), watchers: new Set(), rv: 1, now };
  const requests: string[] = [];
  const groups = [...new Set(fakeResources.filter((r) => r.group !== "").map((r) => `${r.group}/${r.version}`))];

  const handle = (req: IncomingMessage, res: ServerResponse, body: string): void => {
    const url = new URL(req.url ?? "/", "http://x");
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    const p = url.pathname.replace(/\/$/, "");
    if (p === "/api") return send(res, 200, { kind: "APIVersions", versions: ["v1"], serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress: "127.0.0.1" }] });
    if (p === "/apis") {
      const list = groups.map((gv) => {
        const [name, version] = gv.split("/");
        const v = { groupVersion: gv, version };
        return { name, versions: [v], preferredVersion: v };
      });
      return send(res, 200, { kind: "APIGroupList", apiVersion: "v1", groups: list });
    }
    if (p === "/version") return send(res, 200, { major: "1", minor: "33", gitVersion: "v1.33.0-servicenet-fake" });
    const m = /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))(?:\/namespaces\/([^/]+))?(?:\/([^/]+))?(?:\/([^/]+))?$/.exec(p);
    if (m === null) return send(res, 404, { kind: "Status", apiVersion: "v1", status: "Failure", reason: "NotFound", code: 404, message: "the server could not find the requested resource" });
    const group = m[2] ?? "";
    const version = m[1] ?? m[3] ?? "";
    let namespace = m[4];
    let resource = m[5];
    let name = m[6];
    // "/api/v1/namespaces/foo" is the namespace object itself.
    if (namespace !== undefined && resource === undefined) [resource, name, namespace] = ["namespaces", namespace, undefined];
    if (resource === undefined) {
      const rs = fakeResources.filter((r) => r.group === group && r.version === version).map(discovery);
      return send(res, 200, { kind: "APIResourceList", apiVersion: "v1", groupVersion: group === "" ? version : `${group}/${version}`, resources: rs });
    }
    const info = fakeResources.find((r) => r.group === group && r.version === version && r.name === resource);
    if (info === undefined) return send(res, 404, { kind: "Status", apiVersion: "v1", status: "Failure", reason: "NotFound", code: 404, message: "the server could not find the requested resource" });
    const apiVersion = group === "" ? version : `${group}/${version}`;
    if (req.method !== "GET") return handleWrite(state, req, res, body, info, info.namespaced ? namespace : undefined, name, url.searchParams);
    if (url.searchParams.get("watch") === "true" || url.searchParams.get("watch") === "1") {
      return startWatch(state, req, res, info, namespace, url.searchParams.get("fieldSelector"));
    }
    let matches = state.objects.filter((o) => o.kind === info.kind && (namespace === undefined || o.metadata?.namespace === namespace));
    if (name !== undefined) {
      const found = matches.find((o) => o.metadata?.name === name);
      if (found === undefined) {
        const gr = group === "" ? info.name : `${info.name}.${group}`;
        return send(res, 404, { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message: `${gr} "${name}" not found`, reason: "NotFound", details: { name, group, kind: info.name }, code: 404 });
      }
      matches = [found];
    } else {
      for (const [k, v] of parseSelector(url.searchParams.get("labelSelector"))) matches = matches.filter((o) => o.metadata?.labels?.[k] === v);
      for (const [k, v] of parseSelector(url.searchParams.get("fieldSelector"))) matches = matches.filter((o) => fieldValue(o, k) === v);
    }
    if ((req.headers.accept ?? "").includes("as=Table")) {
      const includeObject = url.searchParams.get("includeObject") === "None" ? "None" : "Object";
      const table = info.table(matches as never[], { wide: true, now: now(), includeObject, listMeta: { resourceVersion: String(state.rv) } });
      return send(res, 200, table);
    }
    if (name !== undefined) return send(res, 200, matches[0]);
    return send(res, 200, { kind: `${info.kind}List`, apiVersion, metadata: { resourceVersion: String(state.rv) }, items: matches });
  };

  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (body += c));
    req.on("end", () => handle(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    requests,
    setObjects(next) {
      state.objects = [...next];
    },
    objects: () => state.objects,
    close: () =>
      new Promise<void>((resolve) => {
        for (const w of state.watchers) w.res.end();
        server.close(() => resolve());
      }),
  };
}
