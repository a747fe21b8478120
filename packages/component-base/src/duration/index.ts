/** Go's time.ParseDuration, as every component's duration flags parse. */
export { parseGoDuration } from "./parse-duration.ts";
