/** Go-compatible formatting primitives kubectl's output is built from. */
export { TabWriter, describeTabWriterOptions, getTabWriterOptions } from "@servicenet/printers/tabwriter";
export type { TabWriterOptions } from "@servicenet/printers/tabwriter";
export { formatRFC1123Z } from "./time.ts";
export { byteSlice, encodeGoString, escapeTerminal, goTrimSpace } from "./strings.ts";
export { goSort } from "./go-sort.ts";
export { goLocalLocation, lookupOffset, parseTZif, utc } from "./zoneinfo.ts";
export type { Location } from "./zoneinfo.ts";
