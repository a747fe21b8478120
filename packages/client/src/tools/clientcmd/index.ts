/** client-go tools/clientcmd: loading rules, kubeconfig loading with validation, keep-alive connections. */
export { loadKubeConfig, kubeconfigPath, validateCurrentContext, KubeconfigError } from "./loader.ts";
export type { KubeconfigErrorReason, LoadKubeConfigOptions } from "./loader.ts";
export {
  reuseConnections,
  setConnectionLimits,
  connectionLimitsOf,
  pooledAgent,
  DefaultMaxSockets,
  DefaultMaxFreeSockets,
} from "./connection-reuse.ts";
export type { ConnectionLimits, ConnectionKind } from "./connection-reuse.ts";
export { loadRawKubeConfig } from "./raw-config.ts";
export type { AuthInfo, KubeconfigCluster, KubeconfigContext, RawKubeConfig } from "./raw-config.ts";
