/**
 * Test support: an in-process apiserver on port 0 with the memory store, HTTPS with certificates
 * generated once per machine into the temp dir, a kubeconfig file, and a runner for real kubectl.
 */
import { execFile } from "node:child_process";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findKubectl } from "@servicenet/testing";
import { startApiServer, type ApiServer, type StartApiServerOptions } from "../controlplane/apiserver.ts";
import { enabledAdmissionPlugins } from "../kubeapiserver/options/plugins.ts";

/** The kubectl the tests drive ("" when there is none); tests skip (with a warning) when it is missing. */
export const kubectl133 = findKubectl("1.33") ?? "";

export interface TestServer {
  api: ApiServer;
  kubeconfigPath: string;
  dir: string;
  /** Runs kubectl against the server; never rejects, the exit code is in the result. */
  kubectl(
    args: readonly string[],
    opts?: { input?: string; timeoutMs?: number; bin?: string },
  ): Promise<{ code: number; stdout: string; stderr: string }>;
  /** fetch() against the server with the bearer token (TLS checks off: the CA is ours). */
  request(
    path: string,
    init?: { method?: string; headers?: Record<string, string>; body?: string | Buffer; token?: string | null },
  ): Promise<TestResponse>;
  /** {@link request} with `body` sent as JSON under `contentType` (a patch type for PATCH). */
  send(method: string, path: string, body?: unknown, contentType?: string): Promise<TestResponse>;
  /**
   * A GET of a watch (`path` carries watch=true and a timeoutSeconds) read as it streams: the event
   * lines once `events` of them arrived and `quietMs` passed without another, or all of them when
   * the server ends the watch first. A test expecting n events need not sit out the timeout.
   */
  watch(path: string, events: number, quietMs?: number): Promise<string[]>;
  close(): Promise<void>;
}

/** What {@link TestServer.request} answers. */
export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  json(): unknown;
}

/** Starts a server for one test file. */
export async function startTestServer(extra: Partial<StartApiServerOptions> = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), "servicenet-server-test-"));
  // Certificates are slow-ish to make (openssl): share them between test files and runs.
  const pki = join(tmpdir(), "servicenet-test-pki");
  const dataDir = join(dir, "data");
  const api = await startApiServer({
    storage: { backend: "memory" },
    dataDir,
    pkiDir: pki,
    tls: true,
    token: "test-token",
    port: 0,
    // test/integration/framework DefaultTestServerFlags: no ServiceAccount admission, as no
    // serviceaccount controller runs to create the `default` ServiceAccounts; pass admissionPlugins to have it.
    admissionPlugins: enabledAdmissionPlugins({ disable: ["ServiceAccount"] }),
    ...extra,
  });
  const kubeconfigPath = join(dir, "kubeconfig");
  writeFileSync(kubeconfigPath, api.kubeconfig());
  const request: TestServer["request"] = async (path, init = {}) => {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    const token = init.token === undefined ? api.token : init.token;
    if (token) headers["Authorization"] = `Bearer ${token}`;
    const res = await insecureFetch(`${api.url}${path}`, {
      method: init.method ?? "GET",
      headers,
      ...(init.body !== undefined ? { body: init.body } : {}),
    });
    return { status: res.status, headers: res.headers, text: res.text, json: () => JSON.parse(res.text) as unknown };
  };
  return {
    api,
    dir,
    kubeconfigPath,
    kubectl: (args, opts = {}) =>
      new Promise((resolve) => {
        const child = execFile(
          opts.bin ?? kubectl133,
          ["--kubeconfig", kubeconfigPath, ...args],
          { timeout: opts.timeoutMs ?? 120_000, env: { ...process.env, KUBECACHEDIR: join(dir, "cache"), HOME: dir } },
          (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
        );
        if (opts.input !== undefined) child.stdin?.end(opts.input);
      }),
    request,
    send: (method, path, body, contentType = "application/json") =>
      request(path, {
        method,
        headers: { "Content-Type": contentType },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      }),
    watch: (path, events, quietMs = 100) => watchLines(`${api.url}${path}`, api.token, events, quietMs),
    close: async () => {
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** True when the real kubectl 1.33 is on this machine; warns visibly otherwise. */
export function haveKubectl(): boolean {
  return findKubectl("1.33", { warnAs: "server tests (real kubectl)" }) !== null;
}

/** {@link TestServer.watch}: the non-empty lines of a streamed GET, ended by us once `events` arrived and `quietMs` passed. */
function watchLines(url: string, token: string | undefined, events: number, quietMs: number): Promise<string[]> {
  const request = url.startsWith("https:") ? httpsRequest : httpRequest;
  const u = new URL(url);
  const target = { protocol: u.protocol, hostname: u.hostname.replace(/^\[|\]$/g, ""), port: u.port, path: url.slice(u.origin.length) };
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  return new Promise((resolve, reject) => {
    const lines: string[] = [];
    let rest = "";
    let quiet: NodeJS.Timeout | undefined;
    const req = request({ ...target, method: "GET", headers, rejectUnauthorized: false }, (res: IncomingMessage) => {
      const done = (): void => {
        clearTimeout(quiet);
        if (rest !== "") lines.push(rest);
        rest = "";
        resolve(lines);
      };
      res.on("data", (c: Buffer) => {
        const parts = (rest + c.toString("utf8")).split("\n");
        rest = parts.pop()!;
        lines.push(...parts.filter((l) => l !== ""));
        // Each further line restarts the quiet period: an unexpected extra event still shows.
        if (lines.length >= events) {
          clearTimeout(quiet);
          quiet = setTimeout(() => {
            done();
            req.destroy();
          }, quietMs);
        }
      });
      res.on("end", done);
      res.on("error", reject);
    });
    req.on("error", (e) => (quiet === undefined ? reject(e) : undefined));
    req.end();
  });
}

interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
}

/** HTTPS request trusting any certificate (node's fetch cannot take a CA per call). */
async function insecureFetch(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string | Buffer },
): Promise<RawResponse> {
  const request = url.startsWith("https:") ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    // DELETE bodies need an explicit length: node sends them neither chunked nor sized otherwise.
    const headers = init.body !== undefined ? { ...init.headers, "Content-Length": String(Buffer.byteLength(init.body)) } : init.headers;
    // The path goes out as written (URL parsing would drop "." segments a test may mean to send).
    const u = new URL(url);
    const target = { protocol: u.protocol, hostname: u.hostname.replace(/^\[|\]$/g, ""), port: u.port, path: url.slice(u.origin.length) };
    const req = request({ ...target, method: init.method, headers, rejectUnauthorized: false }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(", ") : String(v));
        resolve({ status: res.statusCode ?? 0, headers: h, text: Buffer.concat(chunks).toString("utf8") });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    if (init.body !== undefined) req.end(init.body);
    else req.end();
  });
}
