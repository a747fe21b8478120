/**
 * How full each ServiceCIDR is: the model (`serviceCIDRUsage`) and its HTML/SVG page
 * (`renderUsageHTML`), one implementation for `servicenet-kubectl usage servicecidr -o html` and
 * the apiserver's `/servicenet/usage` page.
 */
export { serviceCIDRUsage, staticBandSize } from "./servicecidr-usage.ts";
export type { BitmapView, RangeUsage, UsageHolder } from "./servicecidr-usage.ts";
export { escapeHTML, percent, renderUsageHTML } from "./html.ts";
export type { UsageHTMLOptions } from "./html.ts";
