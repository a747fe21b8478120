/**
 * Which group versions and resources the server serves: upstream's `ResourceConfig`
 * (k8s.io/apiserver pkg/server/storage/resource_config.go), a default per group version and
 * explicit per-resource overrides, the latter winning.
 */

export interface GroupVersion {
  group: string;
  version: string;
}

const gvKey = (gv: GroupVersion): string => `${gv.group}/${gv.version}`;
const gvrKey = (gv: GroupVersion, resource: string): string => `${gvKey(gv)}/${resource}`;

export class ResourceConfig {
  /** `group/version` → enabled. Every registered group version has an entry. */
  readonly groupVersions = new Map<string, boolean>();
  /** `group/version/resource` → enabled, set only by `group/version/resource=` overrides. */
  readonly resources = new Map<string, boolean>();
  private readonly parsed = new Map<string, GroupVersion>();

  /** EnableVersions / DisableVersions: the defaults (no resource preferences are touched). */
  setVersions(enabled: boolean, ...gvs: GroupVersion[]): void {
    for (const gv of gvs) {
      this.groupVersions.set(gvKey(gv), enabled);
      this.parsed.set(gvKey(gv), gv);
    }
  }

  /** EnableMatchingVersions / DisableMatchingVersions: also drops those versions' resource preferences. */
  setMatchingVersions(enabled: boolean, matcher: (gv: GroupVersion) => boolean): void {
    for (const [key, gv] of this.parsed) {
      if (!matcher(gv)) continue;
      this.groupVersions.set(key, enabled);
      this.removeResourcePreferences(gv);
    }
  }

  /** ExplicitlyEnableVersions / ExplicitlyDisableVersions. */
  explicitlySetVersion(gv: GroupVersion, enabled: boolean): void {
    this.groupVersions.set(gvKey(gv), enabled);
    this.parsed.set(gvKey(gv), gv);
    this.removeResourcePreferences(gv);
  }

  /** ExplicitlyEnableResources / ExplicitlyDisableResources. */
  explicitlySetResource(gv: GroupVersion, resource: string, enabled: boolean): void {
    this.resources.set(gvrKey(gv, resource), enabled);
  }

  versionEnabled(gv: GroupVersion): boolean {
    return this.groupVersions.get(gvKey(gv)) === true;
  }

  /** ResourceEnabled: an explicit resource setting takes priority over its version's. */
  resourceEnabled(gv: GroupVersion, resource: string): boolean {
    const explicit = this.resources.get(gvrKey(gv, resource));
    if (explicit !== undefined) return explicit;
    return this.versionEnabled(gv);
  }

  private removeResourcePreferences(gv: GroupVersion): void {
    const prefix = `${gvKey(gv)}/`;
    for (const key of [...this.resources.keys()]) if (key.startsWith(prefix)) this.resources.delete(key);
  }
}
