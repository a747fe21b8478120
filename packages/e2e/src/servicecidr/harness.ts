/**
 * Harness of the KEP-1880 suites (upstream test/integration/servicecidr): in-process apiservers in a
 * chosen allocator mode on a shared open Store (memory or a temp SQLite file), a small JSON client
 * over plain HTTP with the bearer token, and the controller-manager as a child process when a test
 * needs ServiceCIDR Ready conditions and finalizer removal.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { jsonLogger } from "@servicenet/component-base/logs";
import { startControllerManagerProc, type Proc } from "../framework/processes.ts";
import {
  createStore,
  featureGatesForMode,
  startApiServer,
  type AllocatorMode,
  type ApiServer,
  type FeatureGates,
  type Store,
  type StoreConfig,
} from "@servicenet/apiserver";

/** A decoded Kubernetes JSON object (the suites read fields ad hoc). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- decoded JSON is read ad hoc; the suites assert on it
export type Json = any;

/** The three allocator modes, in the order the suites run them. */
export const allModes: readonly AllocatorMode[] = ["bitmap", "dual-write", "ipaddress"];
/** The modes with IPAddress objects and ServiceCIDRs (MultiCIDRServiceAllocator on). */
export const ipAddressModes: readonly AllocatorMode[] = ["dual-write", "ipaddress"];

const token = "servicecidr-e2e-token";

/** One HTTP answer. */
export interface Reply {
  status: number;
  body: Json;
}

/** An in-process apiserver and a client for it. */
export interface TestApi {
  api: ApiServer;
  url: string;
  call(method: string, path: string, body?: unknown, contentType?: string): Promise<Reply>;
  /** Like call, but throws unless the status is 2xx. */
  must(method: string, path: string, body?: unknown, contentType?: string): Promise<Json>;
  /** The apiserver's log lines other than per-request ones (for failure messages). */
  logs(): string[];
  /** A kubeconfig file for this server (for the controller-manager). */
  kubeconfigFile(): string;
  close(): Promise<void>;
}

export interface StartOptions {
  /** An open store shared with other apiservers, or a config the server opens and closes (a restart); default a fresh memory store. */
  store?: Store | StoreConfig;
  mode?: AllocatorMode;
  featureGates?: FeatureGates;
  /** `--service-cluster-ip-range`. */
  range: string;
  repairIntervalMs?: number;
}

/** Starts an apiserver over plain HTTP (token auth on) in `mode`. */
export async function startApi(o: StartOptions): Promise<TestApi> {
  const logs: string[] = [];
  const api = await startApiServer({
    // Info lines (V(2)) for the diagnostics, no request lines (V(3)).
    logger: jsonLogger("apiserver", { verbosity: 2, write: (line) => logs.push(line) }),
    storage: o.store ?? { backend: "memory" },
    tls: false,
    token,
    port: 0,
    serviceClusterIPRange: o.range,
    featureGates: o.featureGates ?? featureGatesForMode(o.mode ?? "dual-write"),
    ...(o.repairIntervalMs !== undefined ? { repairIntervalMs: o.repairIntervalMs } : {}),
  });
  const call = async (method: string, p: string, body?: unknown, contentType = "application/json"): Promise<Reply> => {
    const res = await fetch(`${api.url}${p}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: "application/json",
        ...(body !== undefined ? { "content-type": contentType } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let parsed: Json = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // watch streams and plain-text answers stay text
    }
    return { status: res.status, body: parsed };
  };
  let kcDir: string | undefined;
  return {
    api,
    url: api.url,
    call,
    logs: () => logs,
    async must(method, p, body, contentType) {
      const r = await call(method, p, body, contentType);
      if (r.status < 200 || r.status > 299) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    },
    kubeconfigFile() {
      kcDir ??= mkdtempSync(path.join(tmpdir(), "servicenet-servicecidr-"));
      const file = path.join(kcDir, "kubeconfig");
      // The apiserver's kubeconfig already marks a plain-http server insecure-skip-tls-verify (client-node needs it).
      writeFileSync(file, api.kubeconfig());
      return file;
    },
    async close() {
      await api.close();
      if (kcDir) rmSync(kcDir, { recursive: true, force: true });
    },
  };
}

/** A temp SQLite file: each apiserver given `config` opens and closes it, as a restarted process would. */
export function sqliteFile(): { config: StoreConfig; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), "servicenet-servicecidr-db-"));
  return { config: { backend: "sqlite", path: path.join(dir, "state.db") }, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** An open memory or SQLite store to share between in-process apiservers. */
export async function openStore(kind: "memory" | "sqlite" = "memory"): Promise<{ store: Store; close(): Promise<void> }> {
  if (kind === "memory") {
    const store = await createStore({ backend: "memory" });
    return { store, close: () => store.close() };
  }
  const dir = mkdtempSync(path.join(tmpdir(), "servicenet-servicecidr-db-"));
  const store = await createStore({ backend: "sqlite", path: path.join(dir, "state.db") });
  return {
    store,
    close: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The controller-manager child process (servicecidr controller only). */
export interface ControllerManager extends Omit<Proc, "stop"> {
  /** Resolves once the ServiceCIDR controller's caches are synced (slow to start on a loaded machine). */
  synced(timeoutMs?: number): Promise<void>;
  /** SIGTERM, resolved once it exited. */
  stop(): Promise<void>;
}

/** Starts the controller-manager with `--controllers servicecidr` (framework/processes.ts). */
export async function startControllerManager(kubeconfigFile: string): Promise<ControllerManager> {
  const p = await startControllerManagerProc(kubeconfigFile, { flags: ["--controllers", "servicecidr"], synced: false });
  const stop = p.stop.bind(p);
  return Object.assign(p, {
    synced: async (timeoutMs = 60_000) => {
      await p.waitFor(/"msg":"Caches are synced","controller":"service-cidr-controller"/, timeoutMs);
    },
    stop: async () => void (await stop()),
  });
}
