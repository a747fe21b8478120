/**
 * `--runtime-config`, as kube-apiserver reads it: the flag's `key=value` map (component-base
 * cli/flag ConfigurationMap), its validation (k8s.io/apiserver pkg/server/options/api_enablement.go
 * `Validate`) and its merge over the default ResourceConfig (pkg/server/resourceconfig/helpers.go
 * `MergeAPIResourceConfigs`), with upstream's error messages.
 */
import { ResourceConfig, type GroupVersion } from "./resource-config.ts";

/** The group versions a server knows (upstream: its scheme), served or not. */
export interface GroupVersionRegistry {
  isGroupRegistered(group: string): boolean;
  isVersionRegistered(gv: GroupVersion): boolean;
}

export const apiAll = "api/all";
export const apiGA = "api/ga";
export const apiBeta = "api/beta";
export const apiAlpha = "api/alpha";

const gaPattern = /^v\d+$/;
const betaPattern = /^v\d+beta\d+$/;
const alphaPattern = /^v\d+alpha\d+$/;

const groupVersionMatchers = new Map<string, (gv: GroupVersion) => boolean>([
  [apiAll, () => true],
  [apiGA, (gv) => gaPattern.test(gv.version)],
  [apiBeta, (gv) => betaPattern.test(gv.version)],
  [apiAlpha, (gv) => alphaPattern.test(gv.version)],
]);

/** ConfigurationMap.Set: comma-separated `key=value` pairs, trimmed; a key alone maps to "". Later keys win. */
export function parseConfigurationMap(text: string, into = new Map<string, string>()): Map<string, string> {
  for (const s of text.split(",")) {
    if (s.length === 0) continue;
    const i = s.indexOf("=");
    if (i >= 0) into.set(s.slice(0, i).trim(), s.slice(i + 1).trim());
    else into.set(s.trim(), "");
  }
  return into;
}

/** schema.ParseGroupVersion for a string with at most one slash: `v1` is the core group. */
function parseGroupVersion(s: string): GroupVersion {
  const i = s.indexOf("/");
  return i < 0 ? { group: "", version: s } : { group: s.slice(0, i), version: s.slice(i + 1) };
}

/** strconv.ParseBool, with Go's error text. */
function parseBool(s: string): boolean {
  if (["1", "t", "T", "TRUE", "true", "True"].includes(s)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(s)) return false;
  throw new Error(`strconv.ParseBool: parsing ${JSON.stringify(s)}: invalid syntax`);
}

/** api_enablement.go Validate: returns the errors' messages (empty when valid). */
export function validateRuntimeConfig(overrides: ReadonlyMap<string, string>, registry: GroupVersionRegistry): string[] {
  if (overrides.get(apiAll) === "false" && overrides.size === 1) return [`invalid key with only ${apiAll}=false`];
  const groups: string[] = [];
  for (const key of overrides.keys()) {
    if (groupVersionMatchers.has(key)) continue;
    const tokens = key.split("/");
    if (tokens.length !== 2 && tokens.length !== 3) return [`runtime-config invalid key ${key}`];
    groups.push(tokens[0]!);
  }
  const unknown = groups.filter((g) => !registry.isGroupRegistered(g));
  return unknown.length > 0 ? [`unknown api groups ${unknown.join(",")}`] : [];
}

/**
 * MergeAPIResourceConfigs: the api/all, api/ga, api/beta, api/alpha switches first (in that
 * order), then `group/version`, then `group/version/resource` preferences, which win. Throws
 * with upstream's message on a bad value or an unregistered version.
 */
export function mergeAPIResourceConfigs(
  config: ResourceConfig,
  overrides: ReadonlyMap<string, string>,
  registry: GroupVersionRegistry,
): ResourceConfig {
  for (const [flag, matcher] of groupVersionMatchers) {
    const value = overrides.get(flag);
    if (value === undefined) continue;
    if (value === "false") config.setMatchingVersions(false, matcher);
    else if (value === "true") config.setMatchingVersions(true, matcher);
    else throw new Error(`invalid value ${flag}=${value}`);
  }
  const versionPrefs: { gv: GroupVersion; enabled: boolean }[] = [];
  const resourcePrefs: { gv: GroupVersion; resource: string; enabled: boolean }[] = [];
  for (const [key, value] of overrides) {
    if (groupVersionMatchers.has(key)) continue;
    const tokens = key.split("/");
    if (tokens.length < 2 || tokens.length > 3) continue;
    const gv = parseGroupVersion(`${tokens[0]}/${tokens[1]}`);
    if (!registry.isGroupRegistered(gv.group)) continue;
    if (!registry.isVersionRegistered(gv))
      throw new Error(`group version ${gv.group === "" ? gv.version : `${gv.group}/${gv.version}`} that has not been registered`);
    let enabled = true;
    if (value !== "") {
      try {
        enabled = parseBool(value);
      } catch (e) {
        throw new Error(`invalid value of ${key}: ${value}, err: ${(e as Error).message}`);
      }
    }
    if (tokens.length === 2) versionPrefs.push({ gv, enabled });
    else {
      const resource = tokens[2]!;
      if (resource.toLowerCase() !== resource)
        throw new Error(
          `invalid key ${key}: group/version/resource and resource is always lowercase plural, not ${JSON.stringify(resource)}`,
        );
      resourcePrefs.push({ gv, resource, enabled });
    }
  }
  for (const p of versionPrefs) config.explicitlySetVersion(p.gv, p.enabled);
  for (const p of resourcePrefs) config.explicitlySetResource(p.gv, p.resource, p.enabled);
  return config;
}

/** Validate, then merge over `defaults`: the ResourceConfig a `--runtime-config` value selects. Throws on the first error. */
export function resolveRuntimeConfig(
  defaults: ResourceConfig,
  overrides: ReadonlyMap<string, string>,
  registry: GroupVersionRegistry,
): ResourceConfig {
  const errs = validateRuntimeConfig(overrides, registry);
  if (errs.length > 0) throw new Error(errs.join(", "));
  return mergeAPIResourceConfigs(defaults, overrides, registry);
}
