/**
 * The projected service account token volume the ServiceAccount admission plugin adds to a Pod
 * (plugin/pkg/admission/serviceaccount/admission.go mountServiceAccountToken, TokenVolumeSource).
 */

/** `ServiceAccountVolumeName`: the prefix of the generated volume name. */
export const serviceAccountVolumeName = "kube-api-access";
/** `DefaultAPITokenMountPath`. */
export const defaultAPITokenMountPath = "/var/run/secrets/kubernetes.io/serviceaccount";
/**
 * `serviceaccount.WarnOnlyBoundTokenExpirationSeconds` (pkg/serviceaccount/claims.go): one hour
 * and seven seconds, so the apiserver can tell these tokens from ones a user asked an hour for.
 */
export const warnOnlyBoundTokenExpirationSeconds = 3607;
/** `corev1.ProjectedVolumeSourceDefaultMode` (0644), set explicitly as upstream does. */
const projectedVolumeSourceDefaultMode = 0o644;

type Obj = Record<string, unknown>;

/** `TokenVolumeSource`: the token, the cluster's CA bundle and the Pod's namespace. */
export function tokenVolumeSource(): Obj {
  return {
    sources: [
      { serviceAccountToken: { expirationSeconds: warnOnlyBoundTokenExpirationSeconds, path: "token" } },
      { configMap: { name: "kube-root-ca.crt", items: [{ key: "ca.crt", path: "ca.crt" }] } },
      { downwardAPI: { items: [{ path: "namespace", fieldRef: { apiVersion: "v1", fieldPath: "metadata.namespace" } }] } },
    ],
    defaultMode: projectedVolumeSourceDefaultMode,
  };
}

/** Appends the read-only mount to each of `containers` without one at the default path; whether any got it. */
function mountInto(containers: Obj[] | undefined, volumeName: string): boolean {
  let mounted = false;
  for (const c of containers ?? []) {
    const mounts = (c["volumeMounts"] as Obj[] | undefined) ?? [];
    // An existing mount at the default path prevents mounting the token there.
    if (mounts.some((m) => m["mountPath"] === defaultAPITokenMountPath)) continue;
    c["volumeMounts"] = [...mounts, { name: volumeName, readOnly: true, mountPath: defaultAPITokenMountPath }];
    mounted = true;
  }
  return mounted;
}

/**
 * `mountServiceAccountToken`: reuses a `kube-api-access-*` volume the Pod already has, else names
 * one with `generateName`; mounts it in every init container and container (not ephemeral ones),
 * and adds the volume when a container needed it.
 */
export function mountServiceAccountToken(spec: Obj, generateName: (base: string) => string): void {
  const volumes = (spec["volumes"] as Obj[] | undefined) ?? [];
  const existing = volumes.find((v) => typeof v["name"] === "string" && v["name"].startsWith(`${serviceAccountVolumeName}-`));
  const volumeName = (existing?.["name"] as string | undefined) ?? generateName(`${serviceAccountVolumeName}-`);
  const initNeeds = mountInto(spec["initContainers"] as Obj[] | undefined, volumeName);
  const needs = mountInto(spec["containers"] as Obj[] | undefined, volumeName);
  if (existing === undefined && (initNeeds || needs)) spec["volumes"] = [...volumes, { name: volumeName, projected: tokenVolumeSource() }];
}
