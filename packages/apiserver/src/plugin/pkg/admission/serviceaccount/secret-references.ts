/**
 * The Secrets a Pod names, as the ServiceAccount admission plugin checks them
 * (plugin/pkg/admission/serviceaccount/admission.go limitSecretReferences,
 * limitEphemeralContainerSecretReferences; pkg/api/pod/util.go VisitPodSecretNames).
 */

type Obj = Record<string, unknown>;

const containerKinds = [
  ["initContainers", "init container"],
  ["containers", "container"],
  ["ephemeralContainers", "ephemeral container"],
] as const;

const objs = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
/** A string field's value ("" when absent or not a string). */
const str = (v: unknown): string => (typeof v === "string" ? v : "");
const nameOf = (v: unknown): string | undefined => (v && typeof v === "object" ? ((v as Obj)["name"] as string | undefined) : undefined);

/** The first env or envFrom of `c` naming a Secret outside `allowed`, in upstream's words. */
function containerRefusal(c: Obj, kind: string, allowed: ReadonlySet<string>, sa: string): string | undefined {
  for (const env of objs(c["env"])) {
    const ref = nameOf((env["valueFrom"] as Obj | undefined)?.["secretKeyRef"]);
    if (ref !== undefined && !allowed.has(ref))
      return `${kind} ${str(c["name"])} with envVar ${str(env["name"])} referencing secret.secretName="${ref}" is not allowed because service account ${sa} does not reference that secret`;
  }
  for (const from of objs(c["envFrom"])) {
    const ref = nameOf(from["secretRef"]);
    if (ref !== undefined && !allowed.has(ref))
      return `${kind} ${str(c["name"])} with envFrom referencing secret.secretName="${ref}" is not allowed because service account ${sa} does not reference that secret`;
  }
  return undefined;
}

/** `limitSecretReferences`: volumes, every container's env, and the image pull secrets. */
export function limitSecretReferences(sa: Obj, spec: Obj): string | undefined {
  const saName = nameOf(sa["metadata"]) ?? "";
  const mountable = new Set(objs(sa["secrets"]).map((s) => str(s["name"])));
  for (const v of objs(spec["volumes"])) {
    const secret = v["secret"] as Obj | undefined;
    if (secret === undefined) continue;
    const name = str(secret["secretName"]);
    if (!mountable.has(name))
      return `volume with secret.secretName="${name}" is not allowed because service account ${saName} does not reference that secret`;
  }
  for (const [field, kind] of containerKinds)
    for (const c of objs(spec[field])) {
      const why = containerRefusal(c, kind, mountable, saName);
      if (why !== undefined) return why;
    }
  const pull = new Set(objs(sa["imagePullSecrets"]).map((s) => str(s["name"])));
  const refs = objs(spec["imagePullSecrets"]);
  for (const [i, r] of refs.entries())
    if (!pull.has(str(r["name"])))
      return `imagePullSecrets[${i}].name="${str(r["name"])}" is not allowed because service account ${saName} does not reference that imagePullSecret`;
  return undefined;
}

/** `limitEphemeralContainerSecretReferences`'s check of the ephemeral containers' env. */
export function limitEphemeralContainerSecretReferences(sa: Obj, spec: Obj): string | undefined {
  const saName = nameOf(sa["metadata"]) ?? "";
  const mountable = new Set(objs(sa["secrets"]).map((s) => str(s["name"])));
  for (const c of objs(spec["ephemeralContainers"])) {
    const why = containerRefusal(c, "ephemeral container", mountable, saName);
    if (why !== undefined) return why;
  }
  return undefined;
}

// Volume sources whose Secret is named by a `secretRef` (VisitPodSecretNames).
const secretRefVolumes = ["cephfs", "cinder", "flexVolume", "rbd", "scaleIO", "iscsi", "storageos"] as const;

/** `VisitPodSecretNames` (all containers): whether the Pod names any Secret at all. */
export function podReferencesSecrets(spec: Obj): boolean {
  if (objs(spec["imagePullSecrets"]).length > 0) return true;
  for (const [field] of containerKinds)
    for (const c of objs(spec[field])) {
      if (objs(c["envFrom"]).some((f) => nameOf(f["secretRef"]) !== undefined)) return true;
      if (objs(c["env"]).some((e) => nameOf((e["valueFrom"] as Obj | undefined)?.["secretKeyRef"]) !== undefined)) return true;
    }
  for (const v of objs(spec["volumes"])) {
    if (v["secret"] !== undefined || v["azureFile"] !== undefined) return true;
    if (secretRefVolumes.some((k) => nameOf((v[k] as Obj | undefined)?.["secretRef"]) !== undefined)) return true;
    if (nameOf((v["csi"] as Obj | undefined)?.["nodePublishSecretRef"]) !== undefined) return true;
    const sources = objs((v["projected"] as Obj | undefined)?.["sources"]);
    if (sources.some((s) => s["secret"] !== undefined)) return true;
  }
  return false;
}
