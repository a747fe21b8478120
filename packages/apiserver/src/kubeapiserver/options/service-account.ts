/**
 * The service-account token flags (pkg/kubeapiserver/options/authentication.go
 * ServiceAccountAuthenticationOptions and `--api-audiences`, completed as
 * pkg/controlplane/apiserver/options/options.go `Complete` and validated as its `validateTokenRequest`):
 * `--service-account-issuer` (repeatable; the first issues), `--service-account-key-file`
 * (repeatable; public keys that verify), `--service-account-signing-key-file`, `--api-audiences`,
 * `--service-account-max-token-expiration`, `--service-account-extend-token-expiration` and
 * `--service-account-jwks-uri`.
 */
import type { KeyObject } from "node:crypto";
import { formatGoDuration, parseGoDuration } from "@servicenet/component-base/duration";
import { privateKeyFromFile, publicKeysFromFile } from "@servicenet/client/util/keyutil";
import { expirationExtensionSeconds, warnOnlyBoundTokenExpirationSeconds } from "../../serviceaccount/claims.ts";

/** The flags of this group, as `servicenet up` accepts them. */
export const serviceAccountFlags = [
  "--service-account-issuer",
  "--service-account-key-file",
  "--service-account-signing-key-file",
  "--service-account-max-token-expiration",
  "--service-account-extend-token-expiration",
  "--service-account-jwks-uri",
  "--api-audiences",
] as const;

/** The flags as given (repeatable ones in order). */
export interface ServiceAccountFlags {
  issuers: string[];
  keyFiles: string[];
  signingKeyFile: string;
  /** Seconds; 0 is unset. */
  maxExpirationSeconds: number;
  extendExpiration: boolean;
  jwksURI: string;
  apiAudiences: string[];
}

/** What the server runs with: keys read, audiences defaulted. */
export interface ServiceAccountConfig {
  issuers: string[];
  /** Keys that verify tokens. */
  publicKeys: KeyObject[];
  /** The signing key; without it TokenRequest is not served. */
  signingKey?: KeyObject;
  /** `--api-audiences`, else the issuers. */
  apiAudiences: string[];
  maxExpirationSeconds: number;
  extendExpiration: boolean;
  jwksURI: string;
}

/** The flags' defaults: none set; tokens are extended (`--service-account-extend-token-expiration` default true). */
export const defaultServiceAccountFlags = (): ServiceAccountFlags => ({
  issuers: [],
  keyFiles: [],
  signingKeyFile: "",
  maxExpirationSeconds: 0,
  extendExpiration: true,
  jwksURI: "",
  apiAudiences: [],
});

/** pflag's StringSlice: comma-separated, each occurrence appending. */
const slice = (v: string): string[] =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");

/** Reads the flags' `[flag, value]` pairs in order (`--service-account-issuer` and `--service-account-key-file` repeat). */
export function parseServiceAccountFlags(pairs: readonly (readonly [string, string])[]): ServiceAccountFlags {
  const f = defaultServiceAccountFlags();
  for (const [flag, v] of pairs) {
    switch (flag) {
      case "--service-account-issuer":
        f.issuers.push(v);
        break;
      case "--service-account-key-file":
        f.keyFiles.push(...slice(v));
        break;
      case "--service-account-signing-key-file":
        f.signingKeyFile = v;
        break;
      case "--service-account-max-token-expiration":
        try {
          f.maxExpirationSeconds = parseGoDuration(v) / 1000;
        } catch (e) {
          throw new Error(`invalid argument ${JSON.stringify(v)} for "${flag}" flag: ${(e as Error).message}`);
        }
        break;
      case "--service-account-extend-token-expiration":
        if (v !== "true" && v !== "false")
          throw new Error(
            `invalid argument ${JSON.stringify(v)} for "${flag}" flag: strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`,
          );
        f.extendExpiration = v === "true";
        break;
      case "--service-account-jwks-uri":
        f.jwksURI = v;
        break;
      case "--api-audiences":
        f.apiAudiences.push(...slice(v));
        break;
    }
  }
  return f;
}

/** BuiltInAuthenticationOptions.Validate's service-account checks: the errors, upstream's wording. */
export function validateServiceAccountFlags(f: ServiceAccountFlags): string[] {
  const errs: string[] = [];
  const seen = new Set<string>();
  for (const issuer of f.issuers) {
    if (issuer.includes(":")) {
      try {
        new URL(issuer);
      } catch (e) {
        errs.push(`service-account-issuer ${JSON.stringify(issuer)} contained a ':' but was not a valid URL: ${(e as Error).message}`);
        continue;
      }
    }
    if (issuer === "") {
      errs.push("service-account-issuer should not be an empty string");
      continue;
    }
    if (seen.has(issuer)) {
      errs.push(`service-account-issuer ${JSON.stringify(issuer)} is already specified`);
      continue;
    }
    seen.add(issuer);
  }
  if (f.maxExpirationSeconds !== 0 && (f.maxExpirationSeconds < 3600 || f.maxExpirationSeconds > 2 ** 32))
    errs.push("the service-account-max-token-expiration must be between 1 hour and 2^32 seconds");
  if (f.jwksURI !== "") {
    let scheme = "";
    try {
      scheme = new URL(f.jwksURI).protocol;
    } catch {
      scheme = "";
    }
    if (scheme !== "https:") errs.push("service-account-jwks-uri requires https scheme, parsed as: " + f.jwksURI);
  }
  // validateTokenRequest: the signing key, the issuer and the audiences go together.
  const attempted = f.signingKeyFile !== "" || (f.issuers.length > 0 && f.issuers[0] !== "") || f.apiAudiences.length > 0;
  if (!attempted) errs.push("--service-account-signing-key-file and --service-account-issuer are required flags");
  else if (f.signingKeyFile === "" || f.issuers.length === 0 || f.issuers[0] === "")
    errs.push("--service-account-signing-key-file, --service-account-issuer, and --api-audiences should be specified together");
  return errs;
}

/**
 * Complete: reads the keys (the signing key's public half verifies when no `--service-account-key-file`
 * is given, as the serving key would upstream) and defaults `--api-audiences` to the issuers.
 * `warn` gets upstream's warnings about extended expiration.
 */
export function completeServiceAccountFlags(f: ServiceAccountFlags, warn: (msg: string) => void = () => {}): ServiceAccountConfig {
  const signingKey = f.signingKeyFile !== "" ? privateKeyFromFile(f.signingKeyFile) : undefined;
  const publicKeys = f.keyFiles.flatMap((file) => publicKeysFromFile(file));
  if (publicKeys.length === 0 && signingKey !== undefined) publicKeys.push(...publicKeysFromFile(f.signingKeyFile));
  if (signingKey !== undefined && f.extendExpiration && f.maxExpirationSeconds !== 0) {
    if (f.maxExpirationSeconds < warnOnlyBoundTokenExpirationSeconds)
      warn(
        `service-account-extend-token-expiration is true, in order to correctly trigger safe transition logic, service-account-max-token-expiration must be set longer than ${warnOnlyBoundTokenExpirationSeconds} seconds (currently ${formatGoDuration(f.maxExpirationSeconds * 1000)})`,
      );
    if (f.maxExpirationSeconds < expirationExtensionSeconds)
      warn(
        `service-account-extend-token-expiration is true, enabling tokens valid up to ${expirationExtensionSeconds} seconds, which is longer than service-account-max-token-expiration set to ${formatGoDuration(f.maxExpirationSeconds * 1000)}`,
      );
  }
  return {
    issuers: [...f.issuers],
    publicKeys,
    ...(signingKey ? { signingKey } : {}),
    apiAudiences: f.apiAudiences.length > 0 ? [...f.apiAudiences] : [...f.issuers],
    maxExpirationSeconds: f.maxExpirationSeconds,
    extendExpiration: f.extendExpiration,
    jwksURI: f.jwksURI,
  };
}
