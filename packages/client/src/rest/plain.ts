/**
 * client-node's typed methods return class instances whose timestamps are Date objects, while
 * watch events carry plain JSON. Informer caches must not mix the two, so results are turned back
 * into wire JSON here (what client-go's rest client decodes straight from the body).
 */
// The package has no "exports" map; its serializer is not re-exported from the index.
import { ObjectSerializer } from "@kubernetes/client-node/dist/serializer.js";

/** Serializes a client-node model instance of type `typeName` (e.g. "V1PodList") to plain JSON. */
export function toPlain<T>(obj: unknown, typeName: string): T {
  return JSON.parse(JSON.stringify(ObjectSerializer.serialize(obj, typeName))) as T;
}

/** Our @servicenet/api objects as the body of a client-node call (the shapes are the wire JSON). */
export function asBody<B>(obj: unknown): B {
  return obj as B;
}
