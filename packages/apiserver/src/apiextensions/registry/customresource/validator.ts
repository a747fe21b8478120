/**
 * What customResourceStrategy.Validate and ValidateUpdate check beyond ObjectMeta
 * (apiextensions-apiserver pkg/registry/customresource/strategy.go and validator.go): the
 * version's OpenAPI schema (ratcheting on update), embedded resources, and the uniqueness of
 * `x-kubernetes-list-type` set and map lists (on update only when the old object had none).
 */
import type { FieldErrorList } from "@servicenet/api";
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";
import type { KubeObject } from "../../../storage/index.ts";
import { validateListSetsAndMaps } from "../../apiserver/schema/listtype/validation.ts";
import { validateEmbeddedResources } from "../../apiserver/schema/objectmeta/validation.ts";
import { validateCustomResource, validateCustomResourceUpdate } from "../../apiserver/validation/validation.ts";

export interface SchemaValidator {
  validate(obj: KubeObject): FieldErrorList;
  validateUpdate(obj: KubeObject, old: KubeObject): FieldErrorList;
}

/** The schema checks of one CRD version; none without a schema. */
export function newSchemaValidator(schema: JSONSchemaProps | undefined): SchemaValidator {
  const common = (o: KubeObject): FieldErrorList => validateEmbeddedResources("", o, schema);
  return {
    validate: (o) => [...validateCustomResource(o, schema), ...common(o), ...validateListSetsAndMaps("", schema, o)],
    validateUpdate: (o, old) => [
      ...validateCustomResourceUpdate(o, old, schema),
      ...common(o),
      ...(validateListSetsAndMaps("", schema, old).length === 0 ? validateListSetsAndMaps("", schema, o) : []),
    ],
  };
}
