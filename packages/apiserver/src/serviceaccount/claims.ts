/**
 * A service-account token's claims (pkg/serviceaccount/claims.go): `Claims` builds them for a
 * TokenRequest, `Validator` checks a verified token's claims against the objects it names (the
 * ServiceAccount, and the Pod, Secret or Node it is bound to must still exist with the same uid).
 */
import { randomUUID } from "node:crypto";
import type { PublicClaims } from "@servicenet/component-base/serviceaccount";
import type { KubeObject } from "../storage/index.ts";
import { credentialIDForJTI, makeUsername, type ServiceAccountInfo } from "../authentication/serviceaccount/util.ts";

/** The bound-token expiration that marks a projected token for safe transition (WarnOnlyBoundTokenExpirationSeconds). */
export const warnOnlyBoundTokenExpirationSeconds = 60 * 60 + 7;
/** How long such a token is in fact valid: a year (ExpirationExtensionSeconds). */
export const expirationExtensionSeconds = 24 * 365 * 60 * 60;
/** go-jose's jwt.DefaultLeeway: clock skew allowed on exp/nbf/iat, and on deletion times. */
export const defaultLeewaySeconds = 60;

export type { PublicClaims };

/** A `{name, uid}` reference (both omitempty). */
export interface Ref {
  name?: string;
  uid?: string;
}

/** privateClaims: the `kubernetes.io` claim. */
export interface PrivateClaims {
  "kubernetes.io"?: {
    namespace?: string;
    serviceaccount?: Ref;
    pod?: Ref;
    secret?: Ref;
    node?: Ref;
    warnafter?: number;
  };
}

const ref = (o: KubeObject): Ref => ({ name: o.metadata.name ?? "", uid: o.metadata.uid ?? "" });
const seconds = (d: Date): number => Math.floor(d.getTime() / 1000);

/**
 * Claims: sub, aud, iat, nbf, exp and a fresh jti (ServiceAccountTokenJTI, locked on in 1.33),
 * and the `kubernetes.io` claim naming the ServiceAccount and what the token is bound to. A
 * pod-bound token also names the Pod's Node when known (ServiceAccountTokenPodNodeInfo, locked on).
 */
export function claims(
  sa: KubeObject,
  bound: { pod?: KubeObject | undefined; secret?: KubeObject | undefined; node?: KubeObject | undefined },
  expirationSeconds: number,
  warnafter: number,
  audience: readonly string[],
  now: Date = new Date(),
): { public: PublicClaims; private: PrivateClaims } {
  const t = seconds(now);
  const namespace = sa.metadata.namespace ?? "";
  const pub: PublicClaims = {
    sub: makeUsername(namespace, sa.metadata.name ?? ""),
    aud: [...audience],
    iat: t,
    nbf: t,
    exp: t + expirationSeconds,
    jti: randomUUID(),
  };
  const k: NonNullable<PrivateClaims["kubernetes.io"]> = { namespace, serviceaccount: ref(sa) };
  if (bound.secret !== undefined && (bound.node !== undefined || bound.pod !== undefined))
    throw new Error("internal error, token can only be bound to one object type");
  if (bound.pod !== undefined) {
    k.pod = ref(bound.pod);
    if (bound.node !== undefined) k.node = ref(bound.node);
  } else if (bound.secret !== undefined) k.secret = ref(bound.secret);
  else if (bound.node !== undefined) k.node = ref(bound.node);
  if (warnafter !== 0) k.warnafter = t + warnafter;
  return { public: pub, private: { "kubernetes.io": k } };
}

/** ServiceAccountTokenGetter: reads the objects a token names; throws (a NotFound) when absent. */
export interface ServiceAccountTokenGetter {
  getServiceAccount(namespace: string, name: string): Promise<KubeObject>;
  getPod(namespace: string, name: string): Promise<KubeObject>;
  getSecret(namespace: string, name: string): Promise<KubeObject>;
  getNode(name: string): Promise<KubeObject>;
}

const invalidated = "service account token has been invalidated";

/** Whether an object was deleted before the leeway (a deletion in the last minute still counts as alive). */
function deletedBefore(o: KubeObject, limit: number): boolean {
  const ts = o.metadata.deletionTimestamp;
  return ts !== undefined && ts !== null && Date.parse(ts) < limit;
}

/** jwt.Claims.Validate with the default leeway: the one error of exp, nbf, iat. */
function checkTimes(pub: PublicClaims, now: number): void {
  const t = now / 1000;
  if (pub.exp !== undefined && t > pub.exp + defaultLeewaySeconds) throw new Error("service account token has expired");
  if (pub.nbf !== undefined && t + defaultLeewaySeconds < pub.nbf) throw new Error("service account token is not valid yet");
  // go-jose's ErrIssuedInTheFuture falls in the validator's default case: an opaque error.
  if (pub.iat !== undefined && t + defaultLeewaySeconds < pub.iat)
    throw new Error("service account token claims could not be validated due to unexpected validation error");
}

/** The validator: NewValidator(getter).Validate. */
export class Validator {
  private readonly getter: ServiceAccountTokenGetter;
  private readonly now: () => number;

  constructor(getter: ServiceAccountTokenGetter, now: () => number = Date.now) {
    this.getter = getter;
    this.now = now;
  }

  /** Validate: the claims' times, then the objects they name; the token's ServiceAccountInfo. */
  async validate(pub: PublicClaims, priv: PrivateClaims): Promise<ServiceAccountInfo> {
    const now = this.now();
    checkTimes(pub, now);
    const limit = now - defaultLeewaySeconds * 1000;
    const k = priv["kubernetes.io"] ?? {};
    const namespace = k.namespace ?? "";
    const saref = k.serviceaccount ?? {};
    const sa = await this.getter.getServiceAccount(namespace, saref.name ?? "");
    if (deletedBefore(sa, limit)) throw new Error(`service account ${namespace}/${saref.name ?? ""} has been deleted`);
    if ((sa.metadata.uid ?? "") !== (saref.uid ?? ""))
      throw new Error(`service account UID (${sa.metadata.uid ?? ""}) does not match claim (${saref.uid ?? ""})`);
    if (k.secret !== undefined) {
      const secret = await this.getter.getSecret(namespace, k.secret.name ?? "").catch(() => undefined);
      if (secret === undefined || deletedBefore(secret, limit)) throw new Error(invalidated);
      if ((k.secret.uid ?? "") !== (secret.metadata.uid ?? ""))
        throw new Error(
          `secret UID (${secret.metadata.uid ?? ""}) does not match service account secret ref claim (${k.secret.uid ?? ""})`,
        );
    }
    const info: ServiceAccountInfo = { namespace, name: saref.name ?? "", uid: saref.uid ?? "" };
    if (k.pod !== undefined) {
      const pod = await this.getter.getPod(namespace, k.pod.name ?? "").catch(() => undefined);
      if (pod === undefined || deletedBefore(pod, limit)) throw new Error(invalidated);
      if ((k.pod.uid ?? "") !== (pod.metadata.uid ?? ""))
        throw new Error(`pod UID (${pod.metadata.uid ?? ""}) does not match service account pod ref claim (${k.pod.uid ?? ""})`);
      info.podName = k.pod.name ?? "";
      info.podUID = k.pod.uid ?? "";
    }
    if (k.node !== undefined) {
      // A pod-bound token's node is informational (not checked); a node-bound token's node must live.
      if (k.pod === undefined) {
        const node = await this.getter.getNode(k.node.name ?? "").catch(() => undefined);
        if (node === undefined || deletedBefore(node, limit)) throw new Error(invalidated);
        if ((k.node.uid ?? "") !== (node.metadata.uid ?? ""))
          throw new Error(`node UID (${node.metadata.uid ?? ""}) does not match service account node ref claim (${k.node.uid ?? ""})`);
      }
      info.nodeName = k.node.name ?? "";
      info.nodeUID = k.node.uid ?? "";
    }
    const credentialID = credentialIDForJTI(pub.jti ?? "");
    if (credentialID !== "") info.credentialID = credentialID;
    return info;
  }
}
