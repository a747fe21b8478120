/**
 * The request as a hook or policy that matched it through an equivalent resource sees it
 * (k8s.io/apiserver/pkg/admission/attributes.go VersionedAttributes, conversion.go
 * NewVersionedAttributes, ConvertVersionedAttributes and ConvertToGVK): the objects converted to
 * the matched version, the matched resource and kind beside the requested ones; and the way back
 * for what a mutating webhook changed.
 */
import type { KubeObject } from "../storage/index.ts";
import type { Attributes } from "./attributes.ts";
import type { EquivalentResourceMapper } from "./equivalent-resources.ts";
import type { MatchedResource } from "./plugin/policy/matching/matching.ts";

const sameVersion = (a: Attributes, m: MatchedResource): boolean =>
  a.resource.group === m.resource.group && a.resource.version === m.resource.version && a.resource.resource === m.resource.resource;

/** Whether `v` is a converted view (its objects are copies of the request's). */
export const isConverted = (v: Attributes): boolean => v.requestResource !== undefined;

/**
 * The attributes for a hook matched as `m`: `a` itself when `m` is the requested resource, else a
 * view with the objects converted by `mapper` and the request's resource and kind kept as
 * requestResource and requestKind. Throws when an object cannot be converted.
 */
export function versionedAttributes(a: Attributes, m: MatchedResource, mapper: EquivalentResourceMapper | undefined): Attributes {
  if (mapper === undefined || sameVersion(a, m)) return a;
  const convert = (o: KubeObject | undefined): KubeObject | undefined => o && mapper.convert(o, a.resource, m.resource);
  const object = convert(a.object);
  const oldObject = convert(a.oldObject);
  return {
    ...a,
    resource: m.resource,
    kind: m.kind,
    requestResource: a.resource,
    requestKind: a.kind,
    ...(object !== undefined ? { object } : {}),
    ...(oldObject !== undefined ? { oldObject } : {}),
  };
}

/** Replaces the contents of `target` with `next` (the handlers hold the object by reference). */
export function replaceObject(target: KubeObject, next: KubeObject): void {
  for (const k of Object.keys(target)) if (!(k in next)) delete (target as Record<string, unknown>)[k];
  Object.assign(target, next);
}

/**
 * After a mutating webhook changed the converted object of `v`, writes it back into the request's
 * object in the requested version (the mutating dispatcher's ConvertVersionedAttributes when the
 * next hook wants another version, or the final conversion back).
 */
export function convertBack(a: Attributes, v: Attributes, mapper: EquivalentResourceMapper | undefined): void {
  if (!isConverted(v) || mapper === undefined || a.object === undefined || v.object === undefined) return;
  replaceObject(a.object, mapper.convert(v.object, v.resource, a.resource));
}
