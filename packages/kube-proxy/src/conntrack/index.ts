/** pkg/proxy/conntrack: the UDP conntrack reconciler and the tables it works on. */
export { cleanStaleEntries, udpFrontends } from "./cleanup.ts";
export type { CleanupResult, ConntrackFrontends } from "./cleanup.ts";
export { FakeConntrack, filterMatches } from "./conntrack.ts";
export type { Conntrack, ConntrackFilter, ConntrackFlow } from "./conntrack.ts";
export { DryRunConntrack } from "./dry-run.ts";
export { ExecConntrack, deleteArgs, parseConntrackLine } from "./exec.ts";
