/** APIServerIdentity Leases and their GC (upstream pkg/controlplane/controller/apiserverleasegc). */
export {
  apiserverID,
  collectExpiredIdentityLeases,
  identityLeaseComponentLabelKey,
  renewIdentityLease,
  startIdentityLeaseControllers,
} from "./identity.ts";
