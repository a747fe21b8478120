/**
 * unstructuredSchemaCoercer.apply (apiextensions-apiserver pkg/apiserver/customresource_handler.go)
 * and the storage codec's defaulter: how a custom object is fitted to its version's structural
 * schema when it is decoded (request bodies and patch results) and when it is read back.
 */
import { StatusError } from "@servicenet/api";
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";
import { applyDefaults, pruneNonNullableNullsWithoutDefaults } from "./schema/defaulting/algorithm.ts";
import { pruneDefaults } from "./schema/defaulting/prune.ts";
import { coerceEmbeddedObjectMeta, coerceObjectMeta, MalformedObjectMetaError } from "./schema/objectmeta/coerce.ts";
import { prune } from "./schema/pruning/algorithm.ts";
import type { CoerceOptions } from "../../server/resource-def.ts";

export interface SchemaCoercer {
  /** Prunes (unless the CRD preserves unknown fields) and returns the unknown fields' paths. */
  coerce(obj: Record<string, unknown>, opts?: CoerceOptions): string[];
  /** structuraldefaulting.Default over the whole object. */
  defaults(obj: Record<string, unknown>): void;
  /** A stored object as read through the storage codec: pruned and defaulted, in a copy. */
  read<T extends Record<string, unknown>>(obj: T): T;
}

/** The kind and version request bodies are decoded as, for transformDecodeError's wording. */
export interface DecodingAs {
  kind: string;
  version: string;
}

/**
 * The coercer of one CRD version's `schema`; `preserveUnknownFields` is the CRD's
 * spec.preserveUnknownFields. With `decoding`, `coerce` refuses an embedded metadata that does
 * not decode as ObjectMeta with a 400, as the request decoder does.
 */
export function newSchemaCoercer(
  schema: JSONSchemaProps | undefined,
  preserveUnknownFields: boolean,
  decoding?: DecodingAs,
): SchemaCoercer {
  // getOrCreateServingInfoFor: defaults are served pruned, as the objects they land in would be.
  const withDefaults = schema !== undefined && !preserveUnknownFields ? pruneDefaults(schema) : schema;
  const pruneAll = (obj: Record<string, unknown>, opts: CoerceOptions = {}): string[] => {
    if (preserveUnknownFields || schema === undefined) return [];
    const paths = prune(obj, schema, true);
    if (opts.keepNulls !== true) pruneNonNullableNullsWithoutDefaults(obj, withDefaults);
    return paths;
  };
  return {
    coerce: (obj, opts) => {
      const meta = coerceObjectMeta(obj);
      const pruned = pruneAll(obj, opts);
      const embedded: string[] = [];
      if (!preserveUnknownFields) {
        try {
          coerceEmbeddedObjectMeta(obj, schema, "", embedded, decoding !== undefined);
        } catch (e) {
          if (!(e instanceof MalformedObjectMetaError) || decoding === undefined) throw e;
          const { kind, version } = decoding;
          throw StatusError.badRequest(`${kind} in version ${JSON.stringify(version)} cannot be handled as a ${kind}: ${e.message}`);
        }
      }
      return [...meta, ...pruned, ...embedded];
    },
    defaults: (obj) => applyDefaults(obj, withDefaults),
    read: (obj) => {
      const out = structuredClone(obj);
      pruneAll(out);
      applyDefaults(out, withDefaults);
      return out;
    },
  };
}
