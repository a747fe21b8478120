/** client-node failures mapped to @servicenet/api's StatusError family (client-go rest + apimachinery errors). */
export {
  toStatusError,
  hasStatusCause,
  httpStatusOf,
  describeError,
  isNotFound,
  isAlreadyExists,
  isConflict,
  isInvalid,
  isResourceExpired,
} from "./status.ts";
