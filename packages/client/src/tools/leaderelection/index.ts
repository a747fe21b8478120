/** client-go tools/leaderelection with its Lease lock (resourcelock.LeaseLock). */
export { LeaderElector, decideLease, releasedRecord, defaultLeaderElection } from "./leader-election.ts";
export type {
  LeaseClient,
  LeaseRecord,
  ObservedLease,
  LeaseDecision,
  LeaseDecisionInput,
  LeaderElectorOptions,
} from "./leader-election.ts";
export { leaseLock, leaseToRecord, recordToLease } from "./lease-client.ts";
export { LeaderHealthzAdaptor } from "./healthz-adaptor.ts";
