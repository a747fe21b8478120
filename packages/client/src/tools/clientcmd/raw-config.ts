/**
 * A kubeconfig as written (client-go tools/clientcmd/api/v1/types.go Config, AuthInfo, Context;
 * loader.go LoadFromFile and ResolveLocalPaths; ClientConfig.RawConfig): clusters, users and
 * contexts by name, every field kept, relative file paths resolved against the file's directory.
 * For readers that need what a KubeConfig drops, such as the apiserver's webhook client
 * credentials, which look users up by server name and read `tokenFile` themselves.
 */
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { parse as parseYAML } from "yaml";
import { z } from "zod";

const authInfoSchema = z.object({
  "client-certificate": z.string().optional(),
  "client-certificate-data": z.string().optional(),
  "client-key": z.string().optional(),
  "client-key-data": z.string().optional(),
  token: z.string().optional(),
  tokenFile: z.string().optional(),
  as: z.string().optional(),
  "as-uid": z.string().optional(),
  "as-groups": z.array(z.string()).nullish(),
  "as-user-extra": z.record(z.string(), z.array(z.string())).nullish(),
  username: z.string().optional(),
  password: z.string().optional(),
  "auth-provider": z.record(z.string(), z.unknown()).nullish(),
  exec: z.record(z.string(), z.unknown()).nullish(),
});

const clusterSchema = z.object({
  server: z.string().optional(),
  "certificate-authority": z.string().optional(),
  "certificate-authority-data": z.string().optional(),
  "insecure-skip-tls-verify": z.boolean().optional(),
  "tls-server-name": z.string().optional(),
});

const contextSchema = z.object({
  cluster: z.string().optional(),
  user: z.string().optional(),
  namespace: z.string().optional(),
});

const rawConfigSchema = z.object({
  clusters: z.array(z.object({ name: z.string(), cluster: clusterSchema.nullish() })).nullish(),
  users: z.array(z.object({ name: z.string(), user: authInfoSchema.nullish() })).nullish(),
  contexts: z.array(z.object({ name: z.string(), context: contextSchema.nullish() })).nullish(),
  "current-context": z.string().optional(),
});

/** clientcmdapi.AuthInfo in its v1 field names. */
export type AuthInfo = z.infer<typeof authInfoSchema>;
/** clientcmdapi.Cluster in its v1 field names (the connection fields). */
export type KubeconfigCluster = z.infer<typeof clusterSchema>;
/** clientcmdapi.Context in its v1 field names. */
export type KubeconfigContext = z.infer<typeof contextSchema>;

/** clientcmdapi.Config: clusters, users and contexts by name (a later entry of a name replaces an earlier one). */
export interface RawKubeConfig {
  clusters: Map<string, KubeconfigCluster>;
  authInfos: Map<string, AuthInfo>;
  contexts: Map<string, KubeconfigContext>;
  currentContext: string;
}

/** ResolveLocalPaths for a user: its certificate, key and token files against `base`. */
function resolveAuthInfoPaths(a: AuthInfo, base: string): AuthInfo {
  const abs = (p: string | undefined) => (p === undefined || p === "" || isAbsolute(p) ? p : join(base, p));
  const out: AuthInfo = { ...a };
  for (const k of ["client-certificate", "client-key", "tokenFile"] as const) {
    const p = abs(a[k]);
    if (p !== undefined) out[k] = p;
  }
  return out;
}

/**
 * Reads `path` as clientcmd's loader does for an explicit path: `stat <path>: no such file or
 * directory` when it is missing, a decode error when it is not a kubeconfig; nothing is validated.
 */
export function loadRawKubeConfig(path: string): RawKubeConfig {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") throw new Error(`stat ${path}: no such file or directory`);
    throw e;
  }
  let doc: unknown;
  try {
    doc = parseYAML(text) ?? {};
  } catch (e) {
    throw new Error(`error loading config file "${path}": ${(e as Error).message}`);
  }
  const parsed = rawConfigSchema.safeParse(doc);
  if (!parsed.success)
    throw new Error(
      `error loading config file "${path}": ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  const base = dirname(path);
  const c = parsed.data;
  const abs = (p: string | undefined) => (p === undefined || p === "" || isAbsolute(p) ? p : join(base, p));
  const cluster = (x: KubeconfigCluster): KubeconfigCluster => {
    const ca = abs(x["certificate-authority"]);
    return ca === undefined ? x : { ...x, "certificate-authority": ca };
  };
  return {
    clusters: new Map((c.clusters ?? []).map((x): [string, KubeconfigCluster] => [x.name, cluster(x.cluster ?? {})])),
    authInfos: new Map((c.users ?? []).map((u): [string, AuthInfo] => [u.name, resolveAuthInfoPaths(u.user ?? {}, base)])),
    contexts: new Map((c.contexts ?? []).map((x): [string, KubeconfigContext] => [x.name, x.context ?? {}])),
    currentContext: c["current-context"] ?? "",
  };
}
