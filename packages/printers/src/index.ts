/**
 * @servicenet/printers: the one port of pkg/printers (Table handlers, GenerateTable) and
 * apimachinery's pkg/util/duration. The apiserver's Tables and kubectl's output both use it.
 */
export * from "./tablegenerator.ts";
export * from "./internalversion/index.ts";
export * from "./duration/index.ts";
export { compareGo, formatLabels, joinHostPort } from "./strings.ts";
