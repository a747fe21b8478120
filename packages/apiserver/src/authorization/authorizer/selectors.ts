/**
 * The field and label selectors of authorizer attributes (AuthorizeWithSelectors,
 * staging/src/k8s.io/apiserver/pkg/authorization/authorizer/interfaces.go GetFieldSelector and
 * GetLabelSelector): each non-empty selector becomes its parsed requirements, or the error parsing
 * it; a selector that does not parse is not the caller's failure, the authorizer decides.
 */
import { parseFieldSelector } from "../../registry/generic/selection/fields.ts";
import { parseLabelSelector } from "../../registry/generic/selection/labels.ts";
import type { Attributes } from "./interfaces.ts";

type Parsed<T> = { ok: T } | { err: string };

function parse<T>(s: string, p: (s: string) => T): Parsed<T> {
  try {
    return { ok: p(s) };
  } catch (e) {
    return { err: e instanceof Error ? e.message : String(e) };
  }
}

export interface SelectorOptions {
  /**
   * Leave out requirements that parse to nothing (a selector of only spaces), as
   * endpoints/filters/authorization.go GetAuthorizerAttributes does; the CEL library keeps them.
   */
  omitEmpty?: boolean;
}

/** The selector attributes of `fieldSelector` and `labelSelector` ("" or undefined: none). */
export function selectorAttributes(
  fieldSelector: string | undefined,
  labelSelector: string | undefined,
  o: SelectorOptions = {},
): Partial<Attributes> {
  const out: Partial<Attributes> = {};
  if (fieldSelector) {
    const r = parse(fieldSelector, parseFieldSelector);
    if ("err" in r) out.fieldSelectorParsingErr = r.err;
    else if (!o.omitEmpty || r.ok.length > 0) out.fieldSelectorRequirements = r.ok;
  }
  if (labelSelector) {
    const r = parse(labelSelector, parseLabelSelector);
    if ("err" in r) out.labelSelectorParsingErr = r.err;
    else if (!o.omitEmpty || r.ok.length > 0) out.labelSelectorRequirements = r.ok;
  }
  return out;
}
