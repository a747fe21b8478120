/**
 * Decoding and encoding the `--config` file (cmd/kube-proxy/app/options.go loadConfig and
 * writeConfigFile): YAML or JSON, `kubeproxy.config.k8s.io/v1alpha1` only, strict first and
 * then lenient (unknown fields dropped, the strict error logged), defaulted after decoding.
 */
import type { Logger } from "@servicenet/component-base/logs";
import { stringify, parse } from "yaml";
import { setDefaultsKubeProxyConfiguration } from "./v1alpha1/defaults.ts";
import { groupVersion, KubeProxyConfigurationSchema } from "./v1alpha1/types.ts";
import type { KubeProxyConfiguration } from "./v1alpha1/types.ts";

/** Decodes a config file's text; throws `failed to decode: …` or `failed lenient decoding: …`. */
export function decodeKubeProxyConfiguration(data: string, logger: Logger): KubeProxyConfiguration {
  let obj: unknown;
  try {
    obj = parse(data);
  } catch (err) {
    throw new Error(`failed to decode: ${(err as Error).message}`);
  }
  if (obj === null || typeof obj !== "object" || Array.isArray(obj)) throw new Error("failed to decode: Object 'Kind' is missing");
  const o = obj as Record<string, unknown>;
  if (o.kind === undefined || o.kind === "") throw new Error(`failed to decode: Object 'Kind' is missing in '${JSON.stringify(o)}'`);
  if (o.apiVersion !== groupVersion || o.kind !== "KubeProxyConfiguration") {
    throw new Error(`failed to decode: no kind ${JSON.stringify(o.kind)} is registered for version ${JSON.stringify(o.apiVersion ?? "")}`);
  }
  const strict = KubeProxyConfigurationSchema.safeParse(o);
  if (strict.success) return setDefaultsKubeProxyConfiguration(strict.data);
  const unknown = strict.error.issues.filter((i) => i.code === "unrecognized_keys");
  if (unknown.length !== strict.error.issues.length) throw new Error(`failed to decode: ${issueText(strict.error.issues)}`);
  // Only unknown fields: decode again without them, as the lenient v1alpha1 decoder does.
  // In document order, as the strict JSON decoder meets them.
  const order = documentOrder(o);
  const fields = unknown.flatMap((i) => i.keys.map((k) => [...i.path.map(String), k].join(".")));
  fields.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  const strictErr = `strict decoding error: ${fields.map((f) => `unknown field "${f}"`).join(", ")}`;
  const lenient = KubeProxyConfigurationSchema.safeParse(dropKeys(o, unknown));
  if (!lenient.success) throw new Error(`failed lenient decoding: ${strictErr}`);
  logger.info("Using lenient decoding as strict decoding failed", { err: strictErr });
  return setDefaultsKubeProxyConfiguration(lenient.data);
}

/** Every key path of `o` with its position in a depth-first walk. */
function documentOrder(o: unknown, prefix = "", out = new Map<string, number>()): Map<string, number> {
  if (o === null || typeof o !== "object" || Array.isArray(o)) return out;
  for (const [k, v] of Object.entries(o)) {
    const path = prefix === "" ? k : `${prefix}.${k}`;
    out.set(path, out.size);
    documentOrder(v, path, out);
  }
  return out;
}

function issueText(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues.map((i) => `${i.path.map(String).join(".")}: ${i.message}`).join(", ");
}

function dropKeys(o: Record<string, unknown>, issues: readonly { path: PropertyKey[]; keys: string[] }[]): Record<string, unknown> {
  const copy = structuredClone(o);
  for (const i of issues) {
    let at: unknown = copy;
    for (const p of i.path) at = (at as Record<PropertyKey, unknown>)[p];
    for (const k of i.keys) delete (at as Record<string, unknown>)[k];
  }
  return copy;
}

/** The config as `--write-config-to` writes it: YAML with sorted keys, as sigs.k8s.io/yaml marshals it. */
export function encodeKubeProxyConfiguration(c: KubeProxyConfiguration): string {
  return stringify(c, { sortMapEntries: true, lineWidth: 0 });
}
