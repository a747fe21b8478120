/** The `usage servicecidr` view (not in upstream kubectl); the model and the HTML page live in @servicenet/printers/usage. */
export { serviceCIDRUsage, staticBandSize, renderUsageHTML } from "@servicenet/printers/usage";
export type { RangeUsage, UsageHolder } from "@servicenet/printers/usage";
export { renderUsage, usageToJSON } from "./render.ts";
