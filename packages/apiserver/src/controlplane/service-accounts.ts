/**
 * Service-account tokens in the control plane, wired as kube-apiserver's
 * pkg/controlplane/apiserver (the ServiceAccount REST's TokenREST with the pod, secret and node
 * getters, pkg/registry/core/rest/storage_core_generic.go) and pkg/kubeapiserver/authenticator/config.go
 * (`newServiceAccountAuthenticator` with the token getter of pkg/controller/serviceaccount/tokengetter.go):
 * the `serviceaccounts/token` subresource when a signing key is configured, the token
 * authenticator when issuers and keys are, and the issuer-discovery documents.
 */
import type { ServiceAccountConfig } from "../kubeapiserver/options/service-account.ts";
import type { GenericStore } from "../registry/generic/store.ts";
import { newTokenREST } from "../registry/core/serviceaccount/storage/token.ts";
import { Validator, type ServiceAccountTokenGetter } from "../serviceaccount/claims.ts";
import { JWTTokenGenerator, legacyIssuer } from "@servicenet/component-base/serviceaccount";
import { JWTTokenAuthenticator } from "../serviceaccount/jwt-authenticator.ts";
import { LegacyValidator, type SecretLabeler } from "../serviceaccount/legacy.ts";
import { newOpenIDMetadata, type OpenIDMetadata } from "../serviceaccount/openidmetadata.ts";
import type { ResourceDef } from "../server/resource-def.ts";
import type { TokenAuthenticator } from "../authentication/authenticator/interfaces.ts";

/** The storage getters of the objects a token names (the live reads behind upstream's listers). */
export function storageTokenGetter(stores: () => ReadonlyMap<string, GenericStore>): ServiceAccountTokenGetter {
  const store = (path: string): GenericStore => {
    const s = stores().get(path);
    if (s === undefined) throw new Error(`no storage for ${path}`);
    return s;
  };
  return {
    getServiceAccount: (namespace, name) => store("serviceaccounts").get(namespace, name),
    getPod: (namespace, name) => store("pods").get(namespace, name),
    getSecret: (namespace, name) => store("secrets").get(namespace, name),
    getNode: (name) => store("minions").get(undefined, name),
  };
}

/** The resource table with `serviceaccounts/token` served (create only) when the config can sign. */
export function withTokenSubresource(
  resources: readonly ResourceDef[],
  c: ServiceAccountConfig,
  getter: ServiceAccountTokenGetter,
): readonly ResourceDef[] {
  const signingKey = c.signingKey;
  if (signingKey === undefined || c.issuers.length === 0) return resources;
  const token = newTokenREST({
    getter,
    issuer: new JWTTokenGenerator(c.issuers[0]!, signingKey),
    audiences: c.apiAudiences,
    maxExpirationSeconds: c.maxExpirationSeconds,
    extendExpiration: c.extendExpiration,
  });
  return resources.map((r) =>
    r.group === "" && r.resource === "serviceaccounts"
      ? {
          ...r,
          subresources: [...r.subresources, "token"].sort(),
          subresourceVerbs: { ...r.subresourceVerbs, token: ["create"] },
          subresourceCreate: { ...r.subresourceCreate, token },
        }
      : r,
  );
}

/**
 * The secrets writer of the legacy validator: a merge patch of labels on the Secret of that uid
 * (upstream's loopback client), written through the Secret store.
 */
export function storageSecretLabeler(stores: () => ReadonlyMap<string, GenericStore>): SecretLabeler {
  return async (namespace, name, uid, labels) => {
    const secrets = stores().get("secrets");
    if (secrets === undefined) throw new Error("no storage for secrets");
    await secrets.update(
      namespace,
      name,
      async (cur) => {
        if (cur === null) throw new Error(`secret ${namespace}/${name} not found`);
        const next = structuredClone(cur);
        next.metadata["labels"] = { ...(next.metadata["labels"] as Record<string, string> | undefined), ...labels };
        return Promise.resolve(next);
      },
      { preconditions: { uid } },
    );
  };
}

/**
 * The service-account token authenticators of kube-apiserver's authenticator config, in its order:
 * newLegacyServiceAccountAuthenticator (issuer `kubernetes/serviceaccount`, the verifying keys,
 * lookup on as `--service-account-lookup` defaults) and newServiceAccountAuthenticator (the
 * `--service-account-issuer`s); none without keys.
 */
export function newServiceAccountAuthenticators(
  c: ServiceAccountConfig,
  getter: ServiceAccountTokenGetter,
  labeler: SecretLabeler,
): TokenAuthenticator[] {
  if (c.publicKeys.length === 0) return [];
  const out: TokenAuthenticator[] = [
    new JWTTokenAuthenticator({
      issuers: [legacyIssuer],
      keys: c.publicKeys,
      implicitAudiences: c.apiAudiences,
      validator: new LegacyValidator(true, getter, labeler),
    }),
  ];
  if (c.issuers.length > 0)
    out.push(
      new JWTTokenAuthenticator({
        issuers: c.issuers,
        keys: c.publicKeys,
        implicitAudiences: c.apiAudiences,
        validator: new Validator(getter),
      }),
    );
  return out;
}

/**
 * The issuer-discovery documents for the first issuer, made once the server's address is known;
 * undefined (the endpoints not served) when the issuer is not an OIDC issuer URL, as upstream
 * logs and skips.
 */
export function openIDMetadataOf(c: ServiceAccountConfig, externalAddress: () => string | undefined): () => OpenIDMetadata | undefined {
  let cached: OpenIDMetadata | null | undefined;
  return () => {
    if (cached !== undefined) return cached ?? undefined;
    const address = externalAddress();
    if (address === undefined) return undefined;
    try {
      cached = newOpenIDMetadata(c.issuers[0] ?? "", c.jwksURI, address, c.publicKeys);
    } catch {
      cached = null;
    }
    return cached ?? undefined;
  };
}
