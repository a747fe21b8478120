/** client-node failures mapped to @servicenet/api's StatusError family (client-go rest + apimachinery errors). */
export {
  toStatusError,
  httpStatusOf,
  describeError,
  isNotFound,
  isAlreadyExists,
  isConflict,
  isInvalid,
  isResourceExpired,
} from "./status.ts";
