/**
 * ToStructuralOpenAPIV2 (apiextensions-apiserver pkg/controller/openapi/v2/conversion.go): what
 * OpenAPI v2, and kubectl's v2 readers, cannot express is removed from a structural schema.
 */
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";
import { visitStructural } from "../../../apiserver/schema/kubeopenapi.ts";

function withoutRequired(s: JSONSchemaProps, field: string): void {
  const required = s.required?.filter((r) => r !== field);
  if (required === undefined || required.length === 0) delete s.required;
  else s.required = required;
}

/** Converts a copy of `input` (a toKubeOpenAPI result) to its v2 form. */
export function toStructuralOpenAPIV2(input: JSONSchemaProps): JSONSchemaProps {
  const out = structuredClone(input);
  visitStructural(out, (s) => {
    // Junctors are not part of v2.
    delete s.allOf;
    delete s.oneOf;
    delete s.anyOf;
    delete s.not;
    if (s.nullable === true) {
      // An untyped value breaks kubectl when it has items or properties.
      delete s.type;
      delete s.nullable;
      delete s.items;
      delete s.properties;
    }
    if (s["x-kubernetes-preserve-unknown-fields"] === true) {
      delete s.items;
      delete s.properties;
    }
    // kubectl cannot cope with an array without items, nor an object that keeps unknown fields.
    if (s.items === undefined && s.type === "array") delete s.type;
    if (s["x-kubernetes-preserve-unknown-fields"] === true && s.type === "object") delete s.type;
    for (const [f, fs] of Object.entries(s.properties ?? {})) if (fs.nullable === true) withoutRequired(s, f);
    if (typeof s.additionalProperties === "object" && s.additionalProperties.nullable === true) delete s.required;
  });
  return out;
}
