/**
 * `kubeproxy.config.k8s.io/v1alpha1` KubeProxyConfiguration (staging/src/k8s.io/kube-proxy/config/v1alpha1/types.go),
 * the `--config` file. Strict: an unknown field is a strict-decoding error (upstream then
 * retries leniently and logs it). Durations are Go duration strings.
 */
import { z } from "zod";

export const groupVersion = "kubeproxy.config.k8s.io/v1alpha1";

const duration = z.string();
const int32 = z.number().int();

const ClientConnectionSchema = z
  .object({
    kubeconfig: z.string(),
    acceptContentTypes: z.string(),
    contentType: z.string(),
    qps: z.number(),
    burst: int32,
  })
  .partial()
  .strict();

const LoggingSchema = z
  .object({
    format: z.string(),
    flushFrequency: z.union([duration, z.number()]),
    verbosity: int32,
    vmodule: z.array(z.object({ filePattern: z.string(), verbosity: int32 }).strict()).nullable(),
    options: z.record(z.string(), z.unknown()),
  })
  .partial()
  .strict();

const IPTablesSchema = z
  .object({
    masqueradeBit: int32.nullable(),
    masqueradeAll: z.boolean(),
    localhostNodePorts: z.boolean().nullable(),
    syncPeriod: duration,
    minSyncPeriod: duration,
  })
  .partial()
  .strict();

const IPVSSchema = z
  .object({
    syncPeriod: duration,
    minSyncPeriod: duration,
    scheduler: z.string(),
    excludeCIDRs: z.array(z.string()).nullable(),
    strictARP: z.boolean(),
    tcpTimeout: duration,
    tcpFinTimeout: duration,
    udpTimeout: duration,
  })
  .partial()
  .strict();

const NFTablesSchema = z
  .object({
    masqueradeBit: int32.nullable(),
    masqueradeAll: z.boolean(),
    syncPeriod: duration,
    minSyncPeriod: duration,
  })
  .partial()
  .strict();

const ConntrackSchema = z
  .object({
    maxPerCore: int32.nullable(),
    min: int32.nullable(),
    tcpEstablishedTimeout: duration.nullable(),
    tcpCloseWaitTimeout: duration.nullable(),
    tcpBeLiberal: z.boolean(),
    udpTimeout: duration,
    udpStreamTimeout: duration,
  })
  .partial()
  .strict();

const WinkernelSchema = z
  .object({
    networkName: z.string(),
    sourceVip: z.string(),
    enableDSR: z.boolean(),
    rootHnsEndpointName: z.string(),
    forwardHealthCheckVip: z.boolean(),
  })
  .partial()
  .strict();

export const KubeProxyConfigurationSchema = z
  .object({
    apiVersion: z.string(),
    kind: z.string(),
    featureGates: z.record(z.string(), z.boolean()).nullable(),
    clientConnection: ClientConnectionSchema,
    logging: LoggingSchema,
    hostnameOverride: z.string(),
    bindAddress: z.string(),
    healthzBindAddress: z.string(),
    metricsBindAddress: z.string(),
    bindAddressHardFail: z.boolean(),
    enableProfiling: z.boolean(),
    showHiddenMetricsForVersion: z.string(),
    mode: z.string(),
    iptables: IPTablesSchema,
    ipvs: IPVSSchema,
    nftables: NFTablesSchema,
    winkernel: WinkernelSchema,
    detectLocalMode: z.string(),
    detectLocal: z.object({ bridgeInterface: z.string(), interfaceNamePrefix: z.string() }).partial().strict(),
    clusterCIDR: z.string(),
    nodePortAddresses: z.array(z.string()).nullable(),
    oomScoreAdj: int32.nullable(),
    conntrack: ConntrackSchema,
    configSyncPeriod: duration,
    portRange: z.string(),
    windowsRunAsService: z.boolean(),
  })
  .partial()
  .strict();

export type KubeProxyConfiguration = z.infer<typeof KubeProxyConfigurationSchema>;
