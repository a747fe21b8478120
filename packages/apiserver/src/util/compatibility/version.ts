/**
 * The apiserver's effective version (staging/src/k8s.io/apiserver/pkg/util/compatibility/version.go
 * DefaultBuildEffectiveVersion): binary 1.33.0, which may emulate back to 1.31 (binary minus three
 * minors, never before minimumKubeEmulationVersion 1.31, the first release with emulation) with
 * a min compatibility version one minor lower still.
 */
import { EffectiveVersion, parseComponentVersions } from "@servicenet/component-base/compatibility";
import { Version } from "@servicenet/component-base/version";

/** The Kubernetes release this server implements (component-base/version DefaultKubeBinaryVersion). */
export const kubeBinaryVersion = "1.33.0";

/** minimumKubeEmulationVersion. */
const minimumKubeEmulationVersion = Version.majorMinor(1, 31);

/** DefaultBuildEffectiveVersion with withKubeEffectiveVersionFloors. */
export function defaultBuildEffectiveVersion(): EffectiveVersion {
  const binary = Version.parse(kubeBinaryVersion);
  let floor = binary.withPatch(0).subtractMinor(3);
  if (floor.lessThan(minimumKubeEmulationVersion)) floor = minimumKubeEmulationVersion;
  return new EffectiveVersion(binary, floor, floor.subtractMinor(1));
}

/**
 * The effective version `--emulated-version` asks for (its values as pflag's StringSlice splits
 * them), validated as kube-apiserver's ComponentGlobalsRegistry Set and Validate do: only the
 * "kube" component exists here (`component not registered: x` otherwise), and the version must be
 * within 1.31..1.33. Throws upstream's message.
 */
export function effectiveVersionFromFlag(values: readonly string[]): EffectiveVersion {
  const ev = defaultBuildEffectiveVersion();
  for (const [component, ver] of parseComponentVersions(values)) {
    if (component !== "kube") throw new Error(`component not registered: ${component}`);
    ev.setEmulationVersion(ver);
  }
  const errs = ev.validate();
  if (errs.length > 0) throw new Error(errs.length === 1 ? errs[0] : `[${errs.join(", ")}]`);
  return ev;
}
