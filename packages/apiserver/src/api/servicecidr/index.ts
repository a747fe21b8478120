/** ServiceCIDR helpers (upstream pkg/api/servicecidr). */
export {
  containsAddress,
  containsPrefix,
  isServiceCIDRReady,
  overlapsPrefix,
  serviceCIDRPrefixes,
  serviceCIDRStrings,
} from "./servicecidr.ts";
export type { ServiceCIDRLister } from "./servicecidr.ts";
