/**
 * The ServiceAccount admission plugin for Pods (plugin/pkg/admission/serviceaccount/admission.go):
 * on create it defaults `spec.serviceAccountName` to `default`, refuses a Pod whose ServiceAccount
 * does not exist, mounts the projected `kube-api-access-*` token volume unless automounting is
 * off, copies the ServiceAccount's image pull secrets, and enforces mountable secrets when the
 * ServiceAccount asks for it; an ephemeral containers update is checked the same way. Mirror Pods
 * are never modified, only refused when they name a ServiceAccount, a Secret or a token projection.
 */
import type { Attributes, Operation } from "../../../../admission/attributes.ts";
import { newForbidden } from "../../../../admission/errors.ts";
import type { AdmissionPlugin } from "../../../../admission/interfaces.ts";
import { generateName as simpleNameGenerator } from "../../../../registry/generic/names.ts";
import type { KubeObject } from "../../../../storage/index.ts";
import type { Lister } from "../../../../util/informer/store-informer.ts";
import { limitEphemeralContainerSecretReferences, limitSecretReferences, podReferencesSecrets } from "./secret-references.ts";
import { mountServiceAccountToken } from "./token-volume.ts";

export const serviceAccountPluginName = "ServiceAccount";
/** `DefaultServiceAccountName`. */
export const defaultServiceAccountName = "default";
/** `EnforceMountableSecretsAnnotation`. */
export const enforceMountableSecretsAnnotation = "kubernetes.io/enforce-mountable-secrets";
/** `api.MirrorPodAnnotationKey`. */
const mirrorPodAnnotationKey = "kubernetes.io/config.mirror";

type Obj = Record<string, unknown>;

export interface ServiceAccountPluginOptions {
  /** The ServiceAccount informer's cache (keys `namespace/name`), started on first use. */
  serviceAccounts: Lister<KubeObject> & { start?(): void; stop?(): void };
  /** A live read (null when missing), for ServiceAccounts the cache has not seen yet. */
  getServiceAccount(namespace: string, name: string): Promise<KubeObject | null>;
  /** `names.SimpleNameGenerator.GenerateName` (tests pass a fixed one). */
  generateName?: (base: string) => string;
  /** The pause between live reads of the `default` ServiceAccount (upstream: 100-200 ms). */
  sleep?: (ms: number) => Promise<void>;
}

/** `Plugin` with `MountServiceAccountToken` true and `LimitSecretReferences` false, as registered. */
export class ServiceAccountPlugin implements AdmissionPlugin {
  readonly name = serviceAccountPluginName;
  readonly #o: ServiceAccountPluginOptions;
  #started = false;

  constructor(o: ServiceAccountPluginOptions) {
    this.#o = o;
  }

  handles(op: Operation): boolean {
    return op === "CREATE" || op === "UPDATE";
  }

  stop(): void {
    this.#o.serviceAccounts.stop?.();
  }

  /** `Admit`: only Pod creates are mutated; then Validate. */
  async admit(a: Attributes): Promise<void> {
    if (shouldIgnore(a) || a.operation !== "CREATE") return;
    const pod = a.object!;
    const spec = podSpec(pod);
    if (isMirrorPod(pod)) return this.validate(a);
    if (!spec["serviceAccountName"]) spec["serviceAccountName"] = defaultServiceAccountName;
    const sa = await this.#serviceAccountOrForbidden(a, serviceAccountNameOf(spec));
    if (shouldAutomount(sa, spec)) mountServiceAccountToken(spec, this.#o.generateName ?? simpleNameGenerator);
    const pullSecrets = (spec["imagePullSecrets"] as Obj[] | undefined) ?? [];
    if (pullSecrets.length === 0) {
      const fromSA = ((sa as Obj)["imagePullSecrets"] as Obj[] | undefined) ?? [];
      if (fromSA.length > 0) spec["imagePullSecrets"] = fromSA.map((s) => ({ name: s["name"] }));
    }
    return this.validate(a);
  }

  /** `Validate`: the ServiceAccount must exist and allow the Secrets the Pod (or its new ephemeral containers) names. */
  async validate(a: Attributes): Promise<void> {
    if (shouldIgnore(a)) return;
    const pod = a.object!;
    const spec = podSpec(pod);
    const ephemeralUpdate = a.operation === "UPDATE" && a.subresource === "ephemeralcontainers";
    if (!ephemeralUpdate && a.operation !== "CREATE") return;
    if (!ephemeralUpdate && isMirrorPod(pod)) return validateMirrorPod(a, spec);
    if (!spec["serviceAccountName"])
      throw newForbidden(a, `no service account specified for pod ${a.namespace}/${pod.metadata.name ?? ""}`);
    const sa = await this.#serviceAccountOrForbidden(a, serviceAccountNameOf(spec));
    if (!enforceMountableSecrets(sa)) return;
    if (ephemeralUpdate) {
      const why = limitEphemeralContainerSecretReferences(sa, spec);
      // Upstream returns this one as a plain error: the handler reports it as an InternalError.
      if (why !== undefined) throw new Error(why);
      return;
    }
    const why = limitSecretReferences(sa, spec);
    if (why !== undefined) throw newForbidden(a, why);
  }

  async #serviceAccountOrForbidden(a: Attributes, name: string): Promise<KubeObject> {
    try {
      return await this.#getServiceAccount(a.namespace, name);
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      throw newForbidden(a, `error looking up service account ${a.namespace}/${name}: ${msg}`);
    }
  }

  /** `getServiceAccount`: the cache, then live reads (ten for `default`, which the controller creates soon). */
  async #getServiceAccount(namespace: string, name: string): Promise<KubeObject> {
    if (!this.#started) {
      this.#started = true;
      this.#o.serviceAccounts.start?.();
    }
    const cached = this.#o.serviceAccounts.hasSynced() ? this.#o.serviceAccounts.get(`${namespace}/${name}`) : undefined;
    if (cached !== undefined) return cached;
    const attempts = name === defaultServiceAccountName ? 10 : 1;
    const retryMs = 100 + Math.floor(Math.random() * 100);
    const sleep = this.#o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    for (let i = 0; i < attempts; i++) {
      if (i !== 0) await sleep(retryMs);
      const sa = await this.#o.getServiceAccount(namespace, name);
      if (sa !== null) return sa;
    }
    // errors.NewNotFound(api.Resource("serviceaccount"), name): the singular resource, as upstream.
    throw new Error(`serviceaccount "${name}" not found`);
  }
}

/** `shouldIgnore`: only Pods themselves and their ephemeralcontainers subresource. */
function shouldIgnore(a: Attributes): boolean {
  if (a.resource.group !== "" || a.resource.resource !== "pods") return true;
  if (a.subresource !== "" && a.subresource !== "ephemeralcontainers") return true;
  return a.object === undefined || (a.object.kind !== undefined && a.object.kind !== "Pod");
}

function podSpec(pod: KubeObject): Obj {
  const p = pod as Obj;
  if (typeof p["spec"] !== "object" || p["spec"] === null) p["spec"] = {};
  return p["spec"] as Obj;
}

const serviceAccountNameOf = (spec: Obj): string => (typeof spec["serviceAccountName"] === "string" ? spec["serviceAccountName"] : "");

const annotationsOf = (o: KubeObject): Record<string, string> => (o.metadata.annotations as Record<string, string> | undefined) ?? {};

const isMirrorPod = (pod: KubeObject): boolean => annotationsOf(pod)[mirrorPodAnnotationKey] !== undefined;

/** A mirror Pod may not reference ServiceAccounts, Secrets or token projections. */
function validateMirrorPod(a: Attributes, spec: Obj): void {
  if (spec["serviceAccountName"]) throw newForbidden(a, "a mirror pod may not reference service accounts");
  if (podReferencesSecrets(spec)) throw newForbidden(a, "a mirror pod may not reference secrets");
  for (const v of (spec["volumes"] as Obj[] | undefined) ?? []) {
    const sources = ((v["projected"] as Obj | undefined)?.["sources"] as Obj[] | undefined) ?? [];
    if (sources.some((s) => s["serviceAccountToken"] !== undefined))
      throw newForbidden(a, "a mirror pod may not use ServiceAccountToken volume projections");
  }
}

/** `shouldAutomount`: the Pod's preference, then the ServiceAccount's, else true. */
function shouldAutomount(sa: KubeObject, spec: Obj): boolean {
  const fromPod = spec["automountServiceAccountToken"];
  if (typeof fromPod === "boolean") return fromPod;
  const fromSA = (sa as Obj)["automountServiceAccountToken"];
  return typeof fromSA === "boolean" ? fromSA : true;
}

/** `enforceMountableSecrets`: the annotation parsed as strconv.ParseBool would. */
function enforceMountableSecrets(sa: KubeObject): boolean {
  const v = annotationsOf(sa)[enforceMountableSecretsAnnotation];
  return v !== undefined && ["1", "t", "T", "true", "TRUE", "True"].includes(v);
}
