/**
 * `servicenet up` flags, parsed and validated (kube-apiserver's names where one exists).
 */
import { enabledAdmissionPlugins, validateAdmissionPluginFlags } from "../kubeapiserver/options/plugins.ts";
import { defaultAuthorizationModes, parseAuthorizationModes } from "../kubeapiserver/authorizer/config.ts";
import {
  aggregateErrors,
  validateBuiltInAuthorizationOptions,
  type AuthorizationWebhookOptions,
} from "../kubeapiserver/options/authorization.ts";
import { ipFamilyOfCIDRString, isDualStackCIDRStrings, parseCIDR, parseIP } from "@servicenet/api";
import { parseGoDuration } from "@servicenet/component-base/duration";
import { parseVerbosity } from "@servicenet/component-base/logs";
import { defaultFeatureGatesAt, parseFeatureGates, type FeatureGates } from "../features/kube-features.ts";
import { effectiveVersionFromFlag } from "../util/compatibility/version.ts";
import { registryRoot } from "../storage/keys.ts";
import { defaultNodePortRange, formatPortRange, parsePortRange } from "../registry/core/service/portallocator/port-range.ts";
import { servedAPIs } from "./api-resource-config.ts";
import { parseTolerationSecondsFlag } from "../plugin/pkg/admission/defaulttolerationseconds/admission.ts";
import {
  parseServiceAccountFlags,
  serviceAccountFlags,
  validateServiceAccountFlags,
  type ServiceAccountFlags,
} from "../kubeapiserver/options/service-account.ts";

export const clusterModes = ["v4", "v6", "v4v6", "v6v4"] as const;
export type ClusterMode = (typeof clusterModes)[number];

export const defaultServiceClusterIPRange = "10.96.0.0/16,fd00:10:96::/112";
export const defaultPort = 6443;
export const maxWorkers = 32;

export interface UpOptions {
  /** Service CIDRs in primary-first order, already arranged for `mode`. */
  serviceClusterIPRanges: string[];
  /** `--service-node-port-range` as `base-max` (kube-apiserver's default 30000-32767). */
  serviceNodePortRange: string;
  mode: ClusterMode;
  /** etcd client URLs; empty means embedded SQLite. */
  datastoreEndpoints: string[];
  /** `--etcd-prefix`: the key root of every object in the datastore, as given (default /registry). */
  etcdPrefix: string;
  port: number;
  bindAddress: string;
  /** `--advertise-address`: this apiserver's address in the kubernetes Endpoints (default from the bind address). */
  advertiseAddress: string | undefined;
  dataDir: string;
  /** `--emulated-version` (kube-apiserver's): the major.minor the server emulates, 1.31 to 1.33 (default 1.33). */
  emulatedVersion: string;
  /** `--feature-gates`, over the defaults at the emulated version. */
  featureGates: FeatureGates;
  /** `--repair-interval` in ms: period of the ClusterIP/NodePort repair loops (upstream fixes 3 min). */
  repairIntervalMs: number;
  /** `--runtime-config`, validated: the beta/alpha versions to serve besides the GA ones ("" = none). */
  runtimeConfig: string;
  /** `--workers`: apiserver processes sharing the port and the datastore (1: this process serves). */
  workers: number;
  /** `--token-auth-file`: kube-apiserver's token CSV instead of the generated `<data-dir>/tokens.csv`. */
  tokenAuthFile: string | undefined;
  /** `--client-ca-file`: CA of accepted client certificates (default the generated cluster CA). */
  clientCAFile: string | undefined;
  /** `--anonymous-auth` (default true): requests without credentials are system:anonymous. */
  anonymousAuth: boolean;
  /** `--authorization-mode`, validated: the authorizers in order (default RBAC). */
  authorizationModes: string[];
  /** `--authorization-webhook-config-file` and its companions; undefined without the file. */
  authorizationWebhook: AuthorizationWebhookOptions | undefined;
  /** `--audit-log-path`: audit Events as JSON lines to this file ("-" standard output); none when absent. */
  auditLogPath: string | undefined;
  /** `--audit-policy-file`: the audit.k8s.io/v1 Policy; without it no Event is recorded. */
  auditPolicyFile: string | undefined;
  /** `--enable-priority-and-fairness` (default true); off: the max-in-flight limit. */
  enablePriorityAndFairness: boolean;
  /** `--max-requests-inflight` (default 400) and `--max-mutating-requests-inflight` (default 200). */
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  /**
   * `--enable-admission-plugins` / `--disable-admission-plugins` applied to kube-apiserver 1.33's
   * defaults: the enabled plugins in the order they run.
   */
  admissionPlugins: string[];
  /** `--admission-control-config-file`: the AdmissionConfiguration of the plugins (none when absent). */
  admissionControlConfigFile: string | undefined;
  /** `--default-not-ready-toleration-seconds` / `--default-unreachable-toleration-seconds` (default 300 each). */
  podAdmission: { notReadyTolerationSeconds: number; unreachableTolerationSeconds: number };
  /** `--enable-aggregator-routing` (default false): webhooks' Services are called at an endpoint IP, not the ClusterIP. */
  enableAggregatorRouting: boolean;
  /** klog's `-v`: 0 prints warnings and errors only, 2 the apiserver's info lines, 3 every request. */
  verbosity: number;
  /**
   * The `--service-account-*` and `--api-audiences` flags, validated; undefined when none is given
   * (then kubeadm's: `<data-dir>/pki/sa.key` and the issuer https://kubernetes.default.svc.cluster.local).
   */
  serviceAccounts: ServiceAccountFlags | undefined;
  help: boolean;
}

export const usage = `Usage: servicenet up [flags]

  --service-cluster-ip-range <cidrs>  Service CIDRs, comma separated (default ${defaultServiceClusterIPRange})
  --service-node-port-range <range>   NodePort range, min-max, min+offset or one port
                                      (default 30000-32767)
  --mode v4|v6|v4v6|v6v4              cluster IP families; picks and orders the ranges (default v4v6)
  --datastore-endpoint <url>          etcd client URL(s), comma separated (default: embedded SQLite)
  --etcd-prefix <path>                key root of every object in the datastore, etcd or SQLite
                                      (default /registry); servers sharing one etcd need their own
  --port <n>                          HTTPS port (default ${defaultPort}; 0 picks a free one)
  --bind-address <ip>                 listen address (default 127.0.0.1)
  --advertise-address <ip>            address listed in the kubernetes Service's endpoints
                                      (default the bind address)
  --data-dir <dir>                    state directory (default ./.servicenet)
  --feature-gates <A=bool,...>        MultiCIDRServiceAllocator (default true),
                                      DisableAllocatorDualWrite (default false),
                                      AuthorizeWithSelectors (default true),
                                      StrictCostEnforcementForVAP and StrictCostEnforcementForWebhooks
                                      (GA, locked to true), as Kubernetes 1.33; defaults and locks are
                                      those of the emulated version
  --emulated-version <[kube=]1.x>     kube-apiserver's: emulate an older release's feature gates
                                      (defaults, locks, which exist) and /version's emulationMinor.
                                      Options are: kube=1.31..1.33 (default=1.33)
  --repair-interval <duration>        period of the ClusterIP and NodePort repair loops (default 3m)
  --runtime-config <key=bool,...>     kube-apiserver's: serve versions off by default, e.g.
                                      networking.k8s.io/v1alpha1=true (kubectl 1.27-1.30 describe),
                                      networking.k8s.io/v1beta1=true (1.31-1.32),
                                      authentication.k8s.io/v1beta1=true (1.27 auth whoami), api/all=true
  --authorization-mode <modes>        kube-apiserver's: authorizers in order, comma separated, of
                                      RBAC, Webhook, AlwaysAllow and AlwaysDeny (default RBAC);
                                      system:masters is always allowed first
  --authorization-webhook-config-file <file>
                                      kube-apiserver's: kubeconfig of the Webhook mode's remote service
                                      (cluster server and CA, user credentials); needs mode Webhook
  --authorization-webhook-version <v> kube-apiserver's: SubjectAccessReview version sent, v1 or
                                      v1beta1 (default v1beta1)
  --authorization-webhook-cache-authorized-ttl <duration>
                                      kube-apiserver's: how long allowed answers are cached (default 5m)
  --authorization-webhook-cache-unauthorized-ttl <duration>
                                      kube-apiserver's: how long other answers are cached (default 30s)
  --workers <n>                       apiserver processes on one port and one datastore, as several
                                      kube-apiservers behind a load balancer (default 1, at most ${maxWorkers})
  --token-auth-file <file>            bearer tokens, kube-apiserver's CSV (token,user,uid,"group1,group2");
                                      default <data-dir>/tokens.csv (admin and controller tokens)
  --client-ca-file <file>             CA of client certificates (CN = user, O = groups);
                                      default the generated cluster CA <data-dir>/pki/ca.crt
  --anonymous-auth <bool>             requests without credentials are system:anonymous (default true)
  --audit-policy-file <file>          kube-apiserver's: the audit.k8s.io/v1 Policy (levels and stages)
  --audit-log-path <file>             kube-apiserver's: audit Events as JSON lines to <file> ("-" for
                                      standard output); both flags are needed for audit Events
  --enable-priority-and-fairness <bool>
                                      kube-apiserver's: API Priority and Fairness (default true); false
                                      limits with the two max-inflight flags alone
  --max-requests-inflight <n>         kube-apiserver's: reads in flight (default 400); with priority and
                                      fairness, the server's seats are this plus the next flag
  --max-mutating-requests-inflight <n>
                                      kube-apiserver's: writes in flight (default 200)
  --enable-admission-plugins <names>  kube-apiserver's: admission plugins besides the default ones
  --disable-admission-plugins <names> kube-apiserver's: default admission plugins to turn off
                                      (NamespaceLifecycle, ServiceAccount, DefaultTolerationSeconds,
                                      the webhooks and ValidatingAdmissionPolicy act here; the other
                                      names are accepted and do nothing)
  --admission-control-config-file <file>
                                      kube-apiserver's: an AdmissionConfiguration (YAML or JSON); its
                                      ValidatingAdmissionWebhook and MutatingAdmissionWebhook entries
                                      name the kubeconfig of the webhooks' client credentials
  --default-not-ready-toleration-seconds <n>
                                      kube-apiserver's: tolerationSeconds of the not-ready NoExecute
                                      toleration DefaultTolerationSeconds adds to Pods (default 300)
  --default-unreachable-toleration-seconds <n>
                                      the same for the unreachable toleration (default 300)
  --enable-aggregator-routing <bool>  kube-apiserver's: call a webhook's Service at one of its ready
                                      endpoints instead of its ClusterIP (default false); set it
                                      when no dataplane on this host routes ClusterIPs (npm start does)
  --service-account-issuer <url>      kube-apiserver's: issuer of service-account tokens, repeatable (the
                                      first issues, all are accepted); default, with no service-account
                                      flag: https://kubernetes.default.svc.cluster.local and the key pair
                                      <data-dir>/pki/sa.key, sa.pub made on first start (kubeadm's)
  --service-account-signing-key-file <file>
                                      kube-apiserver's: PEM private key (RSA or ECDSA) that signs them
  --service-account-key-file <file>   kube-apiserver's: PEM public keys that verify them, repeatable
                                      (default the signing key's)
  --api-audiences <auds>              kube-apiserver's: audiences of API tokens (default the issuers)
  --service-account-max-token-expiration <duration>
                                      kube-apiserver's: longest token a TokenRequest gets (1h..2^32 s)
  --service-account-extend-token-expiration <bool>
                                      kube-apiserver's: pod-bound tokens of 1h7s are valid a year and
                                      warn after their hour (default true)
  --service-account-jwks-uri <url>    kube-apiserver's: jwks_uri of the issuer discovery document
                                      (default https://<this server>/openid/v1/jwks)
  -v, --v <n>                         log verbosity, klog's levels: 0 warnings and errors only (default),
                                      2 the apiserver's info lines, 3 one line per request
`;

/** Orders and filters ranges by family for the mode; throws when the mode cannot be met. */
export function rangesForMode(ranges: readonly string[], mode: ClusterMode): string[] {
  const v4 = ranges.find((r) => ipFamilyOfCIDRString(r) === "IPv4");
  const v6 = ranges.find((r) => ipFamilyOfCIDRString(r) === "IPv6");
  const need = (r: string | undefined, fam: string): string => {
    if (r === undefined) throw new Error(`--mode ${mode} needs an ${fam} range in --service-cluster-ip-range`);
    return r;
  };
  switch (mode) {
    case "v4":
      return [need(v4, "IPv4")];
    case "v6":
      return [need(v6, "IPv6")];
    case "v4v6":
      return [need(v4, "IPv4"), need(v6, "IPv6")];
    case "v6v4":
      return [need(v6, "IPv6"), need(v4, "IPv4")];
  }
}

function value(argv: readonly string[], i: number, flag: string): string {
  const v = argv[i + 1];
  if (v === undefined || v.startsWith("--")) throw new Error(`flag ${flag} needs a value`);
  return v;
}

/** Parses argv (without node and script). `--flag=value` and `--flag value` both work. */
export function parseUpOptions(argv: readonly string[]): UpOptions {
  const raw: Record<string, string> = {};
  // The service-account flags repeat: kept in order, their group parses them.
  const saFlags: [string, string][] = [];
  let help = false;
  const args = argv.flatMap((a) =>
    (a.startsWith("--") || a.startsWith("-v=")) && a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a],
  );
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "up") continue;
    if (a === "-h" || a === "--help") {
      help = true;
      continue;
    }
    // A Go bool flag: given alone it is true (pflag's NoOptDefVal).
    if (a === "--enable-aggregator-routing" && (args[i + 1] ?? "-").startsWith("-")) {
      raw["enable-aggregator-routing"] = "true";
      continue;
    }
    if ((serviceAccountFlags as readonly string[]).includes(a)) {
      saFlags.push([a, value(args, i, a)]);
      i++;
      continue;
    }
    if (a === "-v" || a === "--v") {
      raw["v"] = value(args, i, a);
      i++;
      continue;
    }
    if (
      ![
        "--service-cluster-ip-range",
        "--service-node-port-range",
        "--mode",
        "--datastore-endpoint",
        "--etcd-prefix",
        "--port",
        "--bind-address",
        "--advertise-address",
        "--data-dir",
        "--feature-gates",
        "--emulated-version",
        "--repair-interval",
        "--runtime-config",
        "--authorization-mode",
        "--authorization-webhook-config-file",
        "--authorization-webhook-version",
        "--authorization-webhook-cache-authorized-ttl",
        "--authorization-webhook-cache-unauthorized-ttl",
        "--workers",
        "--token-auth-file",
        "--client-ca-file",
        "--anonymous-auth",
        "--audit-log-path",
        "--audit-policy-file",
        "--enable-priority-and-fairness",
        "--max-requests-inflight",
        "--max-mutating-requests-inflight",
        "--enable-admission-plugins",
        "--disable-admission-plugins",
        "--admission-control-config-file",
        "--default-not-ready-toleration-seconds",
        "--default-unreachable-toleration-seconds",
        "--enable-aggregator-routing",
      ].includes(a)
    )
      throw new Error(`unknown flag: ${a}`);
    raw[a.slice(2)] = value(args, i, a);
    i++;
  }
  const ranges = (raw["service-cluster-ip-range"] ?? defaultServiceClusterIPRange)
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  for (const r of ranges) if (parseCIDR(r) === null) throw new Error(`--service-cluster-ip-range: invalid CIDR ${JSON.stringify(r)}`);
  if (ranges.length > 2 || (ranges.length === 2 && !isDualStackCIDRStrings(ranges)))
    throw new Error("--service-cluster-ip-range: at most one IPv4 and one IPv6 CIDR");
  const explicitMode = raw["mode"];
  if (explicitMode !== undefined && !(clusterModes as readonly string[]).includes(explicitMode))
    throw new Error(`--mode must be one of ${clusterModes.join(", ")}`);
  // Without --mode, the ranges as given decide (first family primary).
  const mode = (explicitMode ??
    (ranges.length === 2
      ? ipFamilyOfCIDRString(ranges[0]!) === "IPv4"
        ? "v4v6"
        : "v6v4"
      : ipFamilyOfCIDRString(ranges[0] ?? "") === "IPv6"
        ? "v6"
        : "v4")) as ClusterMode;
  const port = Number(raw["port"] ?? defaultPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port: invalid port ${raw["port"]}`);
  const workers = Number(raw["workers"] ?? 1);
  if (!Number.isInteger(workers) || workers < 1 || workers > maxWorkers)
    throw new Error(`--workers: must be an integer from 1 to ${maxWorkers}, got ${JSON.stringify(raw["workers"])}`);
  const advertiseAddress = raw["advertise-address"];
  if (advertiseAddress !== undefined && parseIP(advertiseAddress) === null)
    throw new Error(`--advertise-address: invalid IP address ${JSON.stringify(advertiseAddress)}`);
  const runtimeConfig = raw["runtime-config"] ?? "";
  try {
    servedAPIs(runtimeConfig);
  } catch (e) {
    throw new Error(`--runtime-config: ${(e as Error).message.replace(/^--runtime-config: /, "")}`);
  }
  // ComponentGlobalsRegistry.Set: the emulation version first, then the gates read at it.
  const emulatedVersion = effectiveVersionFromFlag(splitList(raw["emulated-version"])).emulationVersion.toString();
  const anonymousAuth = raw["anonymous-auth"] ?? "true";
  if (anonymousAuth !== "true" && anonymousAuth !== "false")
    throw new Error(`--anonymous-auth: invalid boolean ${JSON.stringify(anonymousAuth)}`);
  const apf = raw["enable-priority-and-fairness"] ?? "true";
  if (apf !== "true" && apf !== "false") throw new Error(`--enable-priority-and-fairness: invalid boolean ${JSON.stringify(apf)}`);
  const maxRequestsInflight = inflightLimit(raw, "max-requests-inflight", 400);
  const maxMutatingRequestsInflight = inflightLimit(raw, "max-mutating-requests-inflight", 200);
  if (apf === "true" && maxRequestsInflight + maxMutatingRequestsInflight <= 0)
    throw new Error(
      "--max-requests-inflight plus --max-mutating-requests-inflight must be positive when --enable-priority-and-fairness is true",
    );
  const aggregatorRouting = raw["enable-aggregator-routing"] ?? "false";
  if (aggregatorRouting !== "true" && aggregatorRouting !== "false")
    throw new Error(`--enable-aggregator-routing: invalid boolean ${JSON.stringify(aggregatorRouting)}`);
  const admissionFlags = {
    enable: splitList(raw["enable-admission-plugins"]),
    disable: splitList(raw["disable-admission-plugins"]),
  };
  const admissionErrors = validateAdmissionPluginFlags(admissionFlags);
  if (admissionErrors.length > 0) throw new Error(admissionErrors.join("; "));
  let authorizationModes: string[];
  try {
    authorizationModes = parseAuthorizationModes(raw["authorization-mode"] ?? defaultAuthorizationModes.join(","));
  } catch (e) {
    throw new Error(`--authorization-mode: ${(e as Error).message}`);
  }
  const authorizationWebhook = authorizationWebhookFlags(raw);
  const authzErrors = validateBuiltInAuthorizationOptions(authorizationModes, authorizationWebhook);
  if (authzErrors.length > 0) throw new Error(aggregateErrors(authzErrors));
  return {
    serviceClusterIPRanges: rangesForMode(ranges, mode),
    serviceNodePortRange: nodePortRangeFlag(raw["service-node-port-range"]),
    mode,
    datastoreEndpoints: raw["datastore-endpoint"] ? raw["datastore-endpoint"].split(",").map((s) => s.trim()) : [],
    etcdPrefix: raw["etcd-prefix"] ?? registryRoot,
    port,
    bindAddress: raw["bind-address"] ?? "127.0.0.1",
    advertiseAddress,
    dataDir: raw["data-dir"] ?? ".servicenet",
    emulatedVersion,
    featureGates:
      raw["feature-gates"] !== undefined
        ? parseFeatureGates(raw["feature-gates"], emulatedVersion)
        : defaultFeatureGatesAt(emulatedVersion),
    repairIntervalMs: raw["repair-interval"] !== undefined ? parseDurationMs(raw["repair-interval"], "--repair-interval") : 3 * 60_000,
    runtimeConfig,
    authorizationModes,
    authorizationWebhook,
    workers,
    tokenAuthFile: raw["token-auth-file"],
    clientCAFile: raw["client-ca-file"],
    anonymousAuth: anonymousAuth === "true",
    auditLogPath: raw["audit-log-path"],
    auditPolicyFile: raw["audit-policy-file"],
    enablePriorityAndFairness: apf === "true",
    maxRequestsInflight,
    maxMutatingRequestsInflight,
    admissionPlugins: enabledAdmissionPlugins(admissionFlags),
    admissionControlConfigFile: raw["admission-control-config-file"],
    podAdmission: {
      notReadyTolerationSeconds: parseTolerationSecondsFlag(
        "default-not-ready-toleration-seconds",
        raw["default-not-ready-toleration-seconds"],
      ),
      unreachableTolerationSeconds: parseTolerationSecondsFlag(
        "default-unreachable-toleration-seconds",
        raw["default-unreachable-toleration-seconds"],
      ),
    },
    enableAggregatorRouting: aggregatorRouting === "true",
    verbosity: parseVerbosity(raw["v"] ?? "0"),
    serviceAccounts: serviceAccountOptions(saFlags),
    help,
  };
}

/**
 * `--service-node-port-range` as kube-apiserver reads it: `utilnet.PortRange.Set` (pflag's
 * `invalid argument` wrapping on a bad value), and an empty range replaced by the default
 * (`ServerRunOptions.Complete`).
 */
function nodePortRangeFlag(v: string | undefined): string {
  if (v === undefined) return formatPortRange(defaultNodePortRange);
  let pr;
  try {
    pr = parsePortRange(v);
  } catch (e) {
    throw new Error(`invalid argument ${JSON.stringify(v)} for "--service-node-port-range" flag: ${(e as Error).message}`);
  }
  return formatPortRange(pr.size === 0 ? defaultNodePortRange : pr);
}

/** The service-account flags, validated; undefined when none was given. */
function serviceAccountOptions(pairs: readonly [string, string][]): ServiceAccountFlags | undefined {
  if (pairs.length === 0) return undefined;
  const f = parseServiceAccountFlags(pairs);
  const errs = validateServiceAccountFlags(f);
  if (errs.length > 0) throw new Error(errs.join("; "));
  return f;
}

/** A comma-separated flag value as pflag's StringSlice reads it (empty: none). */
function splitList(v: string | undefined): string[] {
  return (v ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/** A Go duration (time.ParseDuration: "500ms", "10s", "3m", "1h30m") in milliseconds, > 0; throws naming `flag`. */
/** A Go duration flag (pflag's DurationVar: zero and negative durations are values too). */
function durationFlagMs(raw: Readonly<Record<string, string>>, name: string): number | undefined {
  const text = raw[name];
  if (text === undefined) return undefined;
  try {
    return parseGoDuration(text);
  } catch (e) {
    throw new Error(`invalid argument ${JSON.stringify(text)} for "--${name}" flag: ${(e as Error).message}`);
  }
}

/** The Webhook mode's flags; undefined without `--authorization-webhook-config-file` (the others then have no effect). */
function authorizationWebhookFlags(raw: Readonly<Record<string, string>>): AuthorizationWebhookOptions | undefined {
  const configFile = raw["authorization-webhook-config-file"];
  if (configFile === undefined || configFile === "") return undefined;
  const authorized = durationFlagMs(raw, "authorization-webhook-cache-authorized-ttl");
  const unauthorized = durationFlagMs(raw, "authorization-webhook-cache-unauthorized-ttl");
  const version = raw["authorization-webhook-version"];
  return {
    configFile,
    ...(version !== undefined ? { version } : {}),
    ...(authorized !== undefined ? { cacheAuthorizedTTLMs: authorized } : {}),
    ...(unauthorized !== undefined ? { cacheUnauthorizedTTLMs: unauthorized } : {}),
  };
}

export function parseDurationMs(text: string, flag: string): number {
  let total: number;
  try {
    total = parseGoDuration(text);
  } catch {
    total = NaN;
  }
  if (!(total > 0)) throw new Error(`${flag}: invalid duration ${JSON.stringify(text)} (e.g. 30s, 3m)`);
  return total;
}

/** A max-inflight flag: a non-negative integer (ServerRunOptions.Validate's message when negative). */
function inflightLimit(raw: Record<string, string>, flag: string, def: number): number {
  const text = raw[flag];
  if (text === undefined) return def;
  const n = Number(text);
  if (!Number.isInteger(n)) throw new Error(`--${flag}: invalid integer ${JSON.stringify(text)}`);
  if (n < 0) throw new Error(`--${flag} can not be negative value`);
  return n;
}
