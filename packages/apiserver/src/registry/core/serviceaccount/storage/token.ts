/**
 * The `serviceaccounts/token` subresource (pkg/registry/core/serviceaccount/storage/token.go
 * `TokenREST.Create`): POST a TokenRequest, get it back with a signed token for the ServiceAccount,
 * optionally bound to a Pod, Secret or Node of the same namespace whose uid then must match.
 * Nothing is stored; only the ServiceAccount and the bound object are read.
 */
import {
  setDefaultsTokenRequestSpec,
  StatusError,
  TokenRequestSchema,
  validateTokenRequest,
  type FieldErrorList,
  type TokenRequest,
} from "@servicenet/api";
import { field } from "@servicenet/api";
import type { KubeObject } from "../../../../storage/index.ts";
import type { SubresourceCreate } from "../../pod/storage/binding.ts";
import type { WriteParams } from "../../../generic/options.ts";
import type { GenericStore } from "../../../generic/store.ts";
import {
  claims,
  expirationExtensionSeconds,
  warnOnlyBoundTokenExpirationSeconds,
  type ServiceAccountTokenGetter,
} from "../../../../serviceaccount/claims.ts";
import type { TokenGenerator } from "@servicenet/component-base/serviceaccount";
import { credentialIDForJTI, issuedCredentialIDAuditAnnotationKey } from "../../../../authentication/serviceaccount/util.ts";

const gk = { group: "authentication.k8s.io", kind: "TokenRequest" };

export interface TokenRESTConfig {
  /** Reads the Pod, Secret or Node a token is bound to. */
  getter: Omit<ServiceAccountTokenGetter, "getServiceAccount">;
  /** Signs the tokens (`--service-account-signing-key-file`, first `--service-account-issuer`). */
  issuer: TokenGenerator;
  /** `--api-audiences` (default the issuers): a request's audiences when it names none. */
  audiences: readonly string[];
  /** `--service-account-max-token-expiration` in seconds; 0 is no limit. */
  maxExpirationSeconds: number;
  /** `--service-account-extend-token-expiration` (default true). */
  extendExpiration: boolean;
  now?: () => Date;
}

/** RFC 3339 in seconds, as metav1.Time. */
const rfc3339 = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, "Z");

/** The request's name and namespace, when set, are the ServiceAccount's. */
function checkMeta(req: TokenRequest, namespace: string, name: string): void {
  const errs: FieldErrorList = [];
  if ((req.metadata.name ?? "") !== "" && req.metadata.name !== name)
    errs.push(field.invalid("metadata.name", req.metadata.name, "must match the service account name if specified"));
  else if ((req.metadata.namespace ?? "") !== "" && req.metadata.namespace !== namespace)
    errs.push(field.invalid("metadata.namespace", req.metadata.namespace, "must match the service account namespace if specified"));
  if (errs.length > 0) throw StatusError.invalid(gk, name, errs);
}

interface Bound {
  pod?: KubeObject;
  secret?: KubeObject;
  node?: KubeObject;
}

/** The object a token is bound to, checked as upstream: its kind, the Pod's service account, its uid. */
async function boundObject(c: TokenRESTConfig, req: TokenRequest, namespace: string, name: string): Promise<Bound> {
  const ref = req.spec.boundObjectRef;
  if (ref === undefined || ref === null) return {};
  const apiVersion = ref.apiVersion ?? "";
  const group = apiVersion.includes("/") ? apiVersion.slice(0, apiVersion.indexOf("/")) : "";
  const refName = ref.name ?? "";
  const bound: Bound = {};
  let uid: string;
  if (group === "" && ref.kind === "Pod") {
    const pod = await c.getter.getPod(namespace, refName);
    const podSA = ((pod["spec"] ?? {}) as { serviceAccountName?: string }).serviceAccountName ?? "";
    if (name !== podSA)
      throw StatusError.badRequest(
        `cannot bind token for serviceaccount ${JSON.stringify(name)} to pod running with different serviceaccount name.`,
      );
    uid = pod.metadata.uid ?? "";
    bound.pod = pod;
    // ServiceAccountTokenPodNodeInfo (locked on in 1.33): the Pod's Node, by name alone when it is gone.
    const nodeName = ((pod["spec"] ?? {}) as { nodeName?: string }).nodeName ?? "";
    if (nodeName !== "") bound.node = await nodeOrName(c, nodeName);
  } else if (group === "" && ref.kind === "Node") {
    bound.node = await c.getter.getNode(refName);
    uid = bound.node.metadata.uid ?? "";
  } else if (group === "" && ref.kind === "Secret") {
    bound.secret = await c.getter.getSecret(namespace, refName);
    uid = bound.secret.metadata.uid ?? "";
  } else {
    throw StatusError.badRequest(`cannot bind token to object of type ${gvkString(apiVersion, ref.kind ?? "")}`);
  }
  if ((ref.uid ?? "") !== "" && uid !== ref.uid)
    throw StatusError.conflict(
      { group, resource: ref.kind ?? "" },
      refName,
      `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  return bound;
}

/** The Pod's Node; a Node that does not exist is named without a uid, any other failure is a 500. */
async function nodeOrName(c: TokenRESTConfig, nodeName: string): Promise<KubeObject> {
  try {
    return await c.getter.getNode(nodeName);
  } catch (e) {
    if (e instanceof StatusError && e.reason === "NotFound") return { metadata: { name: nodeName } };
    throw StatusError.internal(e instanceof Error ? e.message : String(e), e);
  }
}

/** schema.GroupVersionKind.String(): `group/version, Kind=kind` (the group empty for core). */
function gvkString(apiVersion: string, kind: string): string {
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/", 2) : ["", apiVersion];
  return `${group}/${version}, Kind=${kind}`;
}

/** TokenREST.Create. */
async function createToken(
  c: TokenRESTConfig,
  svcaccts: GenericStore,
  namespace: string,
  name: string,
  body: KubeObject,
  p: WriteParams,
): Promise<KubeObject> {
  const req = body as unknown as TokenRequest;
  checkMeta(req, namespace, name);
  const sa = await svcaccts.get(namespace, name);
  setDefaultsTokenRequestSpec(req.spec);
  if ((req.spec.audiences ?? []).length === 0) req.spec.audiences = [...c.audiences];
  const now = (c.now ?? (() => new Date()))();
  const metadata = {
    name: req.metadata.name || (sa.metadata.name ?? ""),
    namespace: req.metadata.namespace || (sa.metadata.namespace ?? ""),
    ...(req.metadata.uid ? { uid: req.metadata.uid } : {}),
    creationTimestamp: rfc3339(now),
  };
  delete req.status;
  const errs = validateTokenRequest(req);
  if (errs.length > 0) throw StatusError.invalid(gk, "", errs);
  await p.createValidation?.(structuredClone(body));
  const bound = await boundObject(c, req, namespace, name);
  let expirationSeconds = req.spec.expirationSeconds!;
  if (c.maxExpirationSeconds > 0 && expirationSeconds > c.maxExpirationSeconds) {
    p.warnings?.push(`requested expiration of ${expirationSeconds} seconds shortened to ${c.maxExpirationSeconds} seconds`);
    expirationSeconds = c.maxExpirationSeconds;
  }
  // A projected token of the kubelet's default lifetime for the API audiences is valid for a year
  // but warns after its hour (safe transition to bound tokens); only pod-bound ones.
  let warnAfter = 0;
  let exp = expirationSeconds;
  const auds = req.spec.audiences ?? [];
  if (
    c.extendExpiration &&
    bound.pod !== undefined &&
    expirationSeconds === warnOnlyBoundTokenExpirationSeconds &&
    auds.every((a) => c.audiences.includes(a))
  ) {
    warnAfter = exp;
    exp = expirationExtensionSeconds;
  }
  let token: string;
  let jti: string;
  try {
    const { public: pub, private: priv } = claims(sa, bound, exp, warnAfter, auds, now);
    token = c.issuer.generateToken(pub, priv);
    jti = pub.jti ?? "";
  } catch (e) {
    throw StatusError.internal(`failed to generate token: ${e instanceof Error ? e.message : String(e)}`, e);
  }
  // ServiceAccountTokenJTI (locked on in 1.33): the audit record names the credential it issued.
  if (jti !== "" && p.auditAnnotations !== undefined) p.auditAnnotations[issuedCredentialIDAuditAnnotationKey] = credentialIDForJTI(jti);
  // TokenRequest in Go struct order; the answer's expiration is the one asked for (not the extension).
  return {
    kind: "TokenRequest",
    apiVersion: "authentication.k8s.io/v1",
    metadata,
    spec: {
      audiences: auds,
      expirationSeconds,
      ...(req.spec.boundObjectRef ? { boundObjectRef: req.spec.boundObjectRef } : {}),
    },
    status: { token, expirationTimestamp: rfc3339(new Date(now.getTime() + expirationSeconds * 1000)) },
  };
}

/** `serviceaccounts/token` over the ServiceAccount store (NewREST's TokenREST, served only with an issuer). */
export function newTokenREST(c: TokenRESTConfig): SubresourceCreate {
  return {
    kind: "TokenRequest",
    group: "authentication.k8s.io",
    version: "v1",
    schema: TokenRequestSchema,
    create: (store, namespace, name, body, p) => createToken(c, store, namespace ?? "", name, body, p),
  };
}
