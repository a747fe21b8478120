/**
 * Which served resources are the same objects under another group or version
 * (k8s.io/apimachinery/pkg/runtime/mapper.go equivalentResourceRegistry, as genericapiserver's
 * config.go Complete keys it: by the resource's storage prefix), what kind each one's requests
 * carry (RegisterKindFor, including the kinds of subresources such as autoscaling/v1 Scale), and
 * the conversion of an object between them (admission/conversion.go ConvertToGVK over the
 * server's ObjectConvertor). Custom resources come and go, so the registry is rebuilt from the
 * served resources whenever their generation changes (as upstream's registry is updated when the
 * CRD handler registers a CRD's versions), never per admission call.
 */
import type { ResourceDef } from "../server/resource-def.ts";
import type { KubeObject } from "../storage/index.ts";
import type { GroupVersionKind, GroupVersionResource } from "./attributes.ts";

/** runtime.EquivalentResourceMapper with the convertor the admission plugins use beside it. */
export interface EquivalentResourceMapper {
  /** The resources (this one included) that serve the same storage with `subresource`, in serving order. */
  equivalentResourcesFor(resource: GroupVersionResource, subresource: string): GroupVersionResource[];
  /** The kind of `resource`'s `subresource`; undefined when it is not served. */
  kindFor(resource: GroupVersionResource, subresource: string): GroupVersionKind | undefined;
  /** `obj` (of the request's `from` resource) as `to`'s version would serve it; a copy. */
  convert(obj: KubeObject, from: GroupVersionResource, to: GroupVersionResource): KubeObject;
}

const gvrKey = (r: GroupVersionResource): string => `${r.group}/${r.version}/${r.resource}`;
const apiVersion = (d: Pick<ResourceDef, "group" | "version">): string => (d.group === "" ? d.version : `${d.group}/${d.version}`);

interface Index {
  byGVR: Map<string, ResourceDef>;
  byStorage: Map<string, ResourceDef[]>;
}

function buildIndex(defs: readonly ResourceDef[]): Index {
  const byGVR = new Map<string, ResourceDef>();
  const byStorage = new Map<string, ResourceDef[]>();
  for (const d of defs) {
    byGVR.set(gvrKey(d), d);
    const same = byStorage.get(d.storagePath);
    if (same) same.push(d);
    else byStorage.set(d.storagePath, [d]);
  }
  return { byGVR, byStorage };
}

const serves = (d: ResourceDef, subresource: string): boolean => subresource === "" || d.subresources.includes(subresource);

/**
 * A version's object from another version of the same storage. Versions whose shape differs from
 * storage (events.k8s.io/v1 Event) carry `fromVersion` and `toVersion`; the others differ only in
 * apiVersion, as custom resources under conversion strategy None (nopConverter) do.
 */
function convertBetween(obj: KubeObject, from: ResourceDef, to: ResourceDef): KubeObject {
  const copy = structuredClone(obj);
  const stored = from.fromVersion ? from.fromVersion(copy) : copy;
  if (to.fromVersion && to.toVersion) return to.toVersion(stored);
  return { ...stored, apiVersion: apiVersion(to), kind: to.kind };
}

/**
 * The mapper over the resources `served()` returns (built-in and custom), read again only when
 * `generation()` differs from the last read's: a source whose resources never change may leave it
 * out.
 */
export function newEquivalentResourceMapper(
  served: () => readonly ResourceDef[],
  generation: () => number = () => 0,
): EquivalentResourceMapper {
  let index: Index | undefined;
  let built = 0;
  const current = (): Index => {
    const g = generation();
    if (index === undefined || g !== built) {
      index = buildIndex(served());
      built = g;
    }
    return index;
  };
  return {
    equivalentResourcesFor(resource, subresource) {
      const idx = current();
      const d = idx.byGVR.get(gvrKey(resource));
      if (d === undefined) return [];
      return (idx.byStorage.get(d.storagePath) ?? [])
        .filter((e) => serves(e, subresource))
        .map((e) => ({ group: e.group, version: e.version, resource: e.resource }));
    },
    kindFor(resource, subresource) {
      const d = current().byGVR.get(gvrKey(resource));
      if (d === undefined || !serves(d, subresource)) return undefined;
      const view = d.subresourceViews?.[subresource];
      return view ? { group: view.group, version: view.version, kind: view.kind } : { group: d.group, version: d.version, kind: d.kind };
    },
    convert(obj, from, to) {
      const idx = current();
      const [f, t] = [idx.byGVR.get(gvrKey(from)), idx.byGVR.get(gvrKey(to))];
      if (f === undefined || t === undefined) throw new Error(`unable to convert to ${gvrKey(to)}: unknown resource`);
      return f === t ? obj : convertBetween(obj, f, t);
    },
  };
}
