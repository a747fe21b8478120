/**
 * Unfold (apiextensions-apiserver pkg/apiserver/schema/unfold.go): spells out
 * `x-kubernetes-int-or-string` as the `anyOf` of integer and string it stands for, unless the
 * schema already says so.
 */
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";
import { visitStructural } from "./kubeopenapi.ts";

const intOrString = (): JSONSchemaProps[] => [{ type: "integer" }, { type: "string" }];

/** isIntOrStringAnyOfPattern (validation.go): exactly `anyOf: [{type: integer}, {type: string}]`. */
function isIntOrStringAnyOf(anyOf: JSONSchemaProps[] | undefined): boolean {
  return JSON.stringify(anyOf) === JSON.stringify(intOrString());
}

/** Unfolds `s` in place and returns it. */
export function unfold(s: JSONSchemaProps): JSONSchemaProps {
  visitStructural(s, (n) => {
    if (n["x-kubernetes-int-or-string"] !== true) return;
    if (isIntOrStringAnyOf(n.anyOf) || isIntOrStringAnyOf(n.allOf?.[0]?.anyOf)) return;
    if (n.anyOf === undefined) n.anyOf = intOrString();
    else n.allOf = [{ anyOf: intOrString() }, ...(n.allOf ?? [])];
  });
  return s;
}
