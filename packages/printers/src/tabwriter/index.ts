/** Go's text/tabwriter, as kubectl's printers and the apiserver's debug dumps lay out their tables. */
export { TabWriter, describeTabWriterOptions, getTabWriterOptions } from "./tabwriter.ts";
export type { TabWriterOptions } from "./tabwriter.ts";
