/** client-go util/retry: retry an update on 409 Conflicts with a backoff. */
export { defaultRetry, onError, retryOnConflict } from "./util.ts";
export type { Backoff } from "./util.ts";
