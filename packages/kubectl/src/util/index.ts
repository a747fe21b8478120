/** Go-compatible formatting primitives kubectl's output is built from. */
export { TabWriter, describeTabWriterOptions, getTabWriterOptions } from "./tabwriter.ts";
export type { TabWriterOptions } from "./tabwriter.ts";
export { humanDuration, translateTimestampSince, formatRFC1123Z, parseTime } from "./duration.ts";
export { escapeTerminal, formatLabels, joinHostPort } from "./strings.ts";
