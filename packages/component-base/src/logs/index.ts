/** component-base/logs with klog's verbosity: structured JSON lines and `V(level)`. */
export { V, jsonLogger, noopLogger, parseVerbosity, textLogger } from "./logger.ts";
export type { JSONLoggerOptions, LogFields, Logger } from "./logger.ts";
