/** Applying rendered rules (iptables-restore, nft -f, dry-run files) and the sync loop with metrics. */
export { DryRunApplier, IptablesApplier, NftablesApplier, xtablesLockWaitSeconds } from "./appliers.ts";
export type { Applier } from "./appliers.ts";
export { applyUnavailableReason, inNetns, run } from "./exec.ts";
export type { ExecResult } from "./exec.ts";
export { FamilyRunner } from "./family-runner.ts";
export type { FamilyRunnerOptions } from "./family-runner.ts";
export { defaultSysctlRoot, ensureSysctl, getSysctl, routeLocalnetMessage, sysctlRouteLocalnet } from "./sysctl.ts";
