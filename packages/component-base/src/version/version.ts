/**
 * Versions as k8s.io/apimachinery/pkg/util/version reads them: "1.31", "v1.33.0", "1.33.0+meta".
 * Only the generic form (ParseGeneric: two or more dot-separated numbers, anything after them
 * ignored) that component versions and feature gate specs use.
 */

const versionMatch = /^\s*v?([0-9]+(?:\.[0-9]+)*)(.*)$/s;

/** A parsed version: its numeric components, compared component by component (missing ones are 0). */
export class Version {
  readonly components: readonly number[];
  private constructor(components: readonly number[]) {
    this.components = components;
  }

  /** version.MajorMinor. */
  static majorMinor(major: number, minor: number): Version {
    return new Version([major, minor]);
  }

  /**
   * version.ParseGeneric (and version.Parse): throws with upstream's wording, e.g.
   * `could not parse "x" as version`, `illegal version string "1"`.
   */
  static parse(str: string): Version {
    const m = versionMatch.exec(str);
    if (m === null) throw new Error(`could not parse ${JSON.stringify(str)} as version`);
    const parts = m[1]!.split(".");
    if (parts.length < 2) throw new Error(`illegal version string ${JSON.stringify(str)}`);
    const components = parts.map((c, i) => {
      if (i === 0 && c.startsWith("0") && c !== "0")
        throw new Error(`illegal zero-prefixed version component ${JSON.stringify(c)} in ${JSON.stringify(str)}`);
      return Number(c);
    });
    return new Version(components);
  }

  get major(): number {
    return this.components[0] ?? 0;
  }
  get minor(): number {
    return this.components[1] ?? 0;
  }
  get patch(): number {
    return this.components[2] ?? 0;
  }

  /** Version.WithPatch. */
  withPatch(patch: number): Version {
    return new Version([this.major, this.minor, patch]);
  }

  /** Version.SubtractMinor: the minor lowered by `n` (not below 0), patch dropped. */
  subtractMinor(n: number): Version {
    return Version.majorMinor(this.major, Math.max(0, this.minor - n));
  }

  /** -1, 0 or 1 as Version.Compare. */
  compare(o: Version): number {
    const n = Math.max(this.components.length, o.components.length);
    for (let i = 0; i < n; i++) {
      const a = this.components[i] ?? 0;
      const b = o.components[i] ?? 0;
      if (a !== b) return a < b ? -1 : 1;
    }
    return 0;
  }
  lessThan(o: Version): boolean {
    return this.compare(o) < 0;
  }
  greaterThan(o: Version): boolean {
    return this.compare(o) > 0;
  }
  equalTo(o: Version): boolean {
    return this.compare(o) === 0;
  }

  /** The components joined with dots, as given ("1.31", "1.33.0"). */
  toString(): string {
    return this.components.join(".");
  }
}
