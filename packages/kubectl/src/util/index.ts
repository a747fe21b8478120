/** Go-compatible formatting primitives kubectl's output is built from. */
export { TabWriter, describeTabWriterOptions, getTabWriterOptions } from "./tabwriter.ts";
export type { TabWriterOptions } from "./tabwriter.ts";
export { formatRFC1123Z } from "./time.ts";
export { escapeTerminal } from "./strings.ts";
