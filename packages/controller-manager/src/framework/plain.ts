/**
 * client-node's typed methods return class instances whose timestamps are
 * Date objects, while watch events carry plain JSON. Informer caches must not
 * mix the two, so list results are turned back into wire JSON here.
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

/** The HTTP status of a client-node ApiException (or a watch error), if any. */
export function httpStatusOf(err: unknown): number | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const e = err as { code?: unknown; statusCode?: unknown };
  if (typeof e.code === "number") return e.code;
  if (typeof e.statusCode === "number") return e.statusCode;
  return undefined;
}

export const isNotFound = (err: unknown): boolean => httpStatusOf(err) === 404;
export const isConflict = (err: unknown): boolean => httpStatusOf(err) === 409;
export const isAlreadyExists = isConflict;

/**
 * A one-line description of an error for logs. client-node's ApiException
 * message embeds the whole response (body and headers); the Status inside
 * says it better: "409 Conflict: Operation cannot be fulfilled on ...".
 */
export function describeError(err: unknown): string {
  const code = httpStatusOf(err);
  const body = (err as { body?: unknown } | null)?.body;
  if (code !== undefined && typeof body === "string") {
    try {
      const status = JSON.parse(body) as { reason?: string; message?: string };
      if (status.message !== undefined) return `${code} ${status.reason ?? ""}: ${status.message}`.replace(" :", ":");
    } catch {
      // not a Status body
    }
    return `HTTP ${code}: ${body.slice(0, 200)}`;
  }
  return err instanceof Error ? err.message : String(err);
}
