/** Go's time.ParseDuration and Duration.String, as every component's duration flags and configs use them. */
export { parseGoDuration } from "./parse-duration.ts";
export { formatGoDuration } from "./format-duration.ts";
