export * from "./interfaces.ts";
export { createStore } from "./storage.ts";
export { normalizeEtcdPrefix } from "./key-root.ts";
export { withGroupResource } from "./group-resource.ts";
export { objectKey, resourcePrefix, nameFromKey, registryRoot } from "./keys.ts";
export { sharedOrigin } from "./kv-watch.ts";
export { WatchStream } from "./watch-stream.ts";
export { optimisticLockErrorMsg, StorageError } from "./errors.ts";
export { startCompactor } from "./compactor.ts";
