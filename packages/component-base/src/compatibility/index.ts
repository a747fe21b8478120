/** Compatibility versions, KEP-4330 (k8s.io/component-base/compatibility). */
export { EffectiveVersion, parseComponentVersions } from "./version.ts";
