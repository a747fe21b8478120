/**
 * `--admission-control-config-file` (staging/src/k8s.io/apiserver/pkg/admission/config.go
 * ReadAdmissionConfiguration, GetAdmissionPluginConfigurationFor, configProvider.ConfigFor): an
 * AdmissionConfiguration in YAML or JSON whose plugins each get their configuration from a `path`
 * (relative to the file's directory) or an embedded `configuration`.
 */
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import {
  admissionConfigurationGroupVersions,
  admissionConfigurationSchema,
  type AdmissionPluginConfiguration,
} from "../apis/apiserver/v1/types.ts";
import { DecodeError, decodeConfigObject, parseDocument } from "../util/runtime/decode.ts";

/** The scheme kube-apiserver decodes the file with (server/options/admission.go configScheme). */
const configScheme = "k8s.io/apiserver/pkg/server/options/admission.go";

/** Plugins whose pre-AdmissionConfiguration file was the flag's file itself (legacyPluginsWithUnversionedConfig). */
const legacyPluginsWithUnversionedConfig: ReadonlySet<string> = new Set(["ImagePolicyWebhook", "PodNodeSelector"]);

/** ConfigProvider: a plugin's configuration by name, or undefined when it has none. */
export interface AdmissionConfigProvider {
  /** The plugins' entries as read (paths made absolute). */
  readonly plugins: readonly AdmissionPluginConfiguration[];
  configFor(pluginName: string): string | undefined;
}

/** makeAbs: `path` against `base` (the working directory when base is empty or "."). */
function makeAbs(path: string, base: string): string {
  if (isAbsolute(path)) return path;
  return base === "" || base === "." ? resolve(path) : join(base, path);
}

/** GetAdmissionPluginConfigurationFor: the embedded configuration as JSON, else the file at `path`. */
function pluginConfiguration(p: AdmissionPluginConfiguration): string | undefined {
  if (p.configuration !== undefined) return JSON.stringify(p.configuration);
  if (p.path === undefined || p.path === "") return undefined;
  try {
    return readFileSync(p.path, "utf8");
  } catch (e) {
    // Upstream's klog.Fatalf: the server exits.
    throw new Error(`Couldn't open admission plugin configuration ${p.path}: ${(e as Error).message}`);
  }
}

function providerOf(plugins: readonly AdmissionPluginConfiguration[]): AdmissionConfigProvider {
  return {
    plugins,
    configFor(name) {
      const p = plugins.find((c) => c.name === name);
      return p === undefined ? undefined : pluginConfiguration(p);
    },
  };
}

/**
 * ReadAdmissionConfiguration: the configuration of `configFilePath` ("" for none). A file that is
 * not an AdmissionConfiguration but holds a legacy `imagePolicy` or `podNodeSelectorPluginConfig`
 * map configures those plugins among `pluginNames` with the file itself; anything else that does
 * not decode is an error in upstream's words.
 */
export function readAdmissionConfiguration(pluginNames: readonly string[], configFilePath: string): AdmissionConfigProvider {
  if (configFilePath === "") return providerOf([]);
  let data: string;
  try {
    data = readFileSync(configFilePath, "utf8");
  } catch (e) {
    throw new Error(`unable to read admission control configuration from "${configFilePath}" [${(e as Error).message}]`);
  }
  const registered = admissionConfigurationGroupVersions.map((apiVersion) => ({ apiVersion, kind: "AdmissionConfiguration" }));
  let obj: Record<string, unknown>;
  try {
    obj = decodeConfigObject(data, registered, configScheme);
  } catch (e) {
    if (!(e instanceof DecodeError) || e.reason === "Syntax") throw e;
    return legacyConfiguration(pluginNames, configFilePath, data, e);
  }
  const parsed = admissionConfigurationSchema.safeParse(obj);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  const base = dirname(configFilePath);
  const plugins = (parsed.data.plugins ?? []).map((p) =>
    p.path === undefined || p.path === "" ? p : { ...p, path: makeAbs(p.path, base) },
  );
  return providerOf(plugins);
}

/** The legacy fallback: tolerated only for the two plugins' old unversioned files. */
function legacyConfiguration(
  pluginNames: readonly string[],
  configFilePath: string,
  data: string,
  err: DecodeError,
): AdmissionConfigProvider {
  let doc: unknown;
  try {
    doc = parseDocument(data);
  } catch {
    throw err;
  }
  const map = doc !== null && typeof doc === "object" && !Array.isArray(doc) ? (doc as Record<string, unknown>) : {};
  if (!("imagePolicy" in map) && !("podNodeSelectorPluginConfig" in map)) throw err;
  return providerOf(pluginNames.filter((n) => legacyPluginsWithUnversionedConfig.has(n)).map((name) => ({ name, path: configFilePath })));
}
