/** `ValidateConfigMap` / `ValidateConfigMapUpdate` (pkg/apis/core/validation/validation.go). */
import { field, type FieldErrorList } from "../../../errors/index.ts";
import { labelKeyPath } from "../../../meta/v1/validation/labels.ts";
import { isConfigMapKey } from "../../../meta/v1/validation/name.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../../meta/v1/validation/object-meta.ts";
import { maxConfigMapSize, type ConfigMap } from "../config-map.ts";

const immutableMsg = "field is immutable when `immutable` is set";

const utf8 = new TextEncoder();

/** Bytes a base64 value decodes to (Go's decoder skips CR and LF). */
export function base64DecodedLength(b64: string): number {
  const s = b64.replace(/[\r\n]/g, "");
  const pad = s.endsWith("==") ? 2 : s.endsWith("=") ? 1 : 0;
  return Math.floor((s.length * 3) / 4) - pad;
}

function keyErrors(bag: string, key: string): FieldErrorList {
  return isConfigMapKey(key).map((m) => field.invalid(labelKeyPath(bag, key), key, m));
}

/** `ValidateConfigMap`: DNS-subdomain name, valid and distinct keys, at most 1 MiB of values. */
export function validateConfigMap(cfg: ConfigMap): FieldErrorList {
  const errs = validateObjectMeta(cfg.metadata, { namespaced: true });
  const data = cfg.data ?? {};
  const binaryData = cfg.binaryData ?? {};
  let totalSize = 0;
  for (const [key, value] of Object.entries(data)) {
    errs.push(...keyErrors("data", key));
    if (Object.hasOwn(binaryData, key)) {
      errs.push(field.invalid(labelKeyPath("data", key), key, "duplicate of key present in binaryData"));
    }
    totalSize += utf8.encode(value).length;
  }
  for (const [key, value] of Object.entries(binaryData)) {
    errs.push(...keyErrors("binaryData", key));
    totalSize += base64DecodedLength(value);
  }
  // upstream passes the empty path: the error is about the whole object.
  if (totalSize > maxConfigMapSize) errs.push(field.tooLong("", "", maxConfigMapSize));
  return errs;
}

/** reflect.DeepEqual of two maps: a nil map differs from an empty one, as in Go. */
export function sameBag(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

/** `ValidateConfigMapUpdate`: metadata update rules; once immutable, immutable, data and binaryData stay. */
export function validateConfigMapUpdate(cfg: ConfigMap, oldCfg: ConfigMap): FieldErrorList {
  const errs = validateObjectMetaUpdate(cfg.metadata, oldCfg.metadata);
  if (oldCfg.immutable === true) {
    if (cfg.immutable !== true) errs.push(field.forbidden("immutable", immutableMsg));
    if (!sameBag(cfg.data, oldCfg.data)) errs.push(field.forbidden("data", immutableMsg));
    if (!sameBag(cfg.binaryData, oldCfg.binaryData)) errs.push(field.forbidden("binaryData", immutableMsg));
  }
  errs.push(...validateConfigMap(cfg));
  return errs;
}
