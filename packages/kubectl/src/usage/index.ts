/** The `usage servicecidr` view (not in upstream kubectl). */
export { serviceCIDRUsage, staticBandSize } from "./servicecidr-usage.ts";
export type { RangeUsage, UsageHolder } from "./servicecidr-usage.ts";
export { renderUsage, usageToJSON } from "./render.ts";
