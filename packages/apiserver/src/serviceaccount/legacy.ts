/**
 * Secret-based ("legacy") service-account tokens (pkg/serviceaccount/legacy.go): the validator
 * of the claims the tokens controller signs into a `kubernetes.io/service-account-token` Secret
 * (component-base's legacyClaims), which accepts such a token only while its Secret exists and holds it and its ServiceAccount
 * exists with the uid it names; each use labels the Secret with the day it was last used
 * (LegacyServiceAccountTokenTracking, GA), and a Secret labelled invalid refuses its token
 * (LegacyServiceAccountTokenCleanUp, GA).
 */
import { timingSafeEqual } from "node:crypto";
import type { KubeObject } from "../storage/index.ts";
import {
  invalidSinceLabelKey,
  lastUsedLabelKey,
  type LegacyPrivateClaims,
  type PublicClaims,
} from "@servicenet/component-base/serviceaccount";
import type { ServiceAccountInfo } from "../authentication/serviceaccount/util.ts";
import type { ServiceAccountTokenGetter } from "./claims.ts";
import type { TokenContext } from "./jwt-authenticator.ts";

/** Writes the last-used label (upstream's secretsWriter: a merge patch of the labels, preconditioned on the uid). */
export type SecretLabeler = (namespace: string, name: string, uid: string, labels: Record<string, string>) => Promise<void>;

/** apiserverserviceaccount.SplitUsername: `system:serviceaccount:<ns>:<name>`, or undefined. */
function splitUsername(username: string): { namespace: string; name: string } | undefined {
  const prefix = "system:serviceaccount:";
  if (!username.startsWith(prefix)) return undefined;
  const parts = username.slice(prefix.length).split(":");
  if (parts.length !== 2 || parts[0] === "" || parts[1] === "") return undefined;
  return { namespace: parts[0]!, name: parts[1]! };
}

const utcDay = (d: Date): string => d.toISOString().slice(0, 10);

const labelsOf = (o: KubeObject): Record<string, string> => (o.metadata["labels"] ?? {}) as Record<string, string>;

/** subtle.ConstantTimeCompare of the Secret's token (base64 in `data`) and the presented one. */
function sameToken(secret: KubeObject, token: string): boolean {
  const stored = Buffer.from(((secret["data"] ?? {}) as Record<string, string>)["token"] ?? "", "base64");
  const given = Buffer.from(token);
  return stored.length === given.length && timingSafeEqual(stored, given);
}

/** NewLegacyValidator(lookup, getter, secretsWriter).Validate. */
export class LegacyValidator {
  private readonly lookup: boolean;
  private readonly getter: ServiceAccountTokenGetter;
  private readonly labeler: SecretLabeler;
  private readonly now: () => Date;

  constructor(lookup: boolean, getter: ServiceAccountTokenGetter, labeler: SecretLabeler, now: () => Date = () => new Date()) {
    this.lookup = lookup;
    this.getter = getter;
    this.labeler = labeler;
    this.now = now;
  }

  /** The claims must be there and agree; with lookup, the Secret and the ServiceAccount must too. */
  async validate(pub: PublicClaims, priv: LegacyPrivateClaims, t: TokenContext): Promise<ServiceAccountInfo> {
    if ((pub.sub ?? "") === "") throw new Error("sub claim is missing");
    const namespace = priv["kubernetes.io/serviceaccount/namespace"] ?? "";
    if (namespace === "") throw new Error("namespace claim is missing");
    const secretName = priv["kubernetes.io/serviceaccount/secret.name"] ?? "";
    if (secretName === "") throw new Error("secretName claim is missing");
    const saName = priv["kubernetes.io/serviceaccount/service-account.name"] ?? "";
    if (saName === "") throw new Error("serviceAccountName claim is missing");
    const saUID = priv["kubernetes.io/serviceaccount/service-account.uid"] ?? "";
    if (saUID === "") throw new Error("serviceAccountUID claim is missing");
    const subject = splitUsername(pub.sub ?? "");
    if (subject === undefined || subject.namespace !== namespace || subject.name !== saName) throw new Error("sub claim is invalid");
    if (this.lookup) await this.lookUp(namespace, secretName, saName, saUID, t);
    return { namespace, name: saName, uid: saUID };
  }

  private async lookUp(namespace: string, secretName: string, saName: string, saUID: string, t: TokenContext): Promise<void> {
    const secret = await this.getter.getSecret(namespace, secretName).catch(() => undefined);
    if (secret === undefined || (secret.metadata.deletionTimestamp ?? null) !== null) throw new Error("Token has been invalidated");
    if (!sameToken(secret, t.token)) throw new Error("Token does not match server's copy");
    const sa = await this.getter.getServiceAccount(namespace, saName);
    if ((sa.metadata.deletionTimestamp ?? null) !== null) throw new Error(`ServiceAccount ${namespace}/${saName} has been deleted`);
    if ((sa.metadata.uid ?? "") !== saUID) throw new Error(`ServiceAccount UID (${sa.metadata.uid ?? ""}) does not match claim (${saUID})`);
    if ((labelsOf(secret)[invalidSinceLabelKey] ?? "") !== "") {
      t.auditAnnotations["authentication.k8s.io/legacy-token-invalidated"] = `${secretName}/${namespace}`;
      await this.markUsed(secret);
      throw new Error(
        `the token in secret ${namespace}/${secretName} for service account ${namespace}/${saName} has been marked invalid. Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the '${invalidSinceLabelKey}' label from the secret to temporarily allow use of this token`,
      );
    }
    // A Secret the ServiceAccount lists was auto-generated (before 1.24); any other was made by hand.
    const refs = ((sa["secrets"] ?? []) as { name?: string }[]).map((r) => r.name);
    if (refs.includes(secretName)) {
      t.warnings.push(
        "Use tokens from the TokenRequest API or manually created secret-based tokens instead of auto-generated secret-based tokens.",
      );
      t.auditAnnotations["authentication.k8s.io/legacy-token-autogenerated-secret"] = secretName;
    } else t.auditAnnotations["authentication.k8s.io/legacy-token-manual-secret"] = secretName;
    await this.markUsed(secret);
  }

  /** patchSecretWithLastUsedDate: at most once a day (today or, across a clock skew, tomorrow are fresh). */
  private async markUsed(secret: KubeObject): Promise<void> {
    const now = this.now();
    const today = utcDay(now);
    const tomorrow = utcDay(new Date(now.getTime() + 24 * 3600 * 1000));
    const lastUsed = labelsOf(secret)[lastUsedLabelKey] ?? "";
    if (lastUsed === today || lastUsed === tomorrow) return;
    // Upstream logs a failed patch and authenticates anyway.
    await this.labeler(secret.metadata.namespace ?? "", secret.metadata.name ?? "", secret.metadata.uid ?? "", {
      [lastUsedLabelKey]: today,
    }).catch(() => undefined);
  }
}
