/**
 * crdHandler (apiextensions-apiserver pkg/apiserver/customresource_handler.go): serves the custom
 * resources of every CRD from the CRD informer's cache, as the kube-apiserver's chain reaches it
 * when no built-in route matched. Each served version is a ResourceDef over a GenericStore on
 * `/registry/<group>/<plural>/`, so the generic handlers, patch, watch, Table and selector code
 * serve them exactly as they serve built-in kinds.
 */
import { isCRDConditionTrue, type CustomResourceDefinition, type CustomResourceDefinitionVersion } from "@servicenet/api/apiextensions/v1";
import type { GenericStore } from "../../registry/generic/store.ts";
import type { RESTStrategy } from "../../registry/generic/strategy.ts";
import type { KubeObject } from "../../storage/index.ts";
import type { StoreInformer } from "../../util/informer/store-informer.ts";
import { readWriteVerbs, type ResourceDef } from "../../server/resources.ts";
import type { EstablishingController } from "../controller/establish/establishing-controller.ts";
import { customResourceScaleView } from "../registry/customresource/scale.ts";
import { newCustomResourceStrategy } from "../registry/customresource/strategy.ts";
import { newTableConvertor } from "../registry/customresource/tableconvertor/tableconvertor.ts";
import { newSchemaCoercer, type SchemaCoercer } from "./schema-coercer.ts";
import { compareKubeAwareVersions } from "./version-priority.ts";
import { stringifyJSON } from "../../util/json/stringify.ts";
import type { CRConverter, CRConverterFactory } from "./conversion/converter.ts";
import { StatusError } from "@servicenet/api";

/** crdHandler.serveResource's supportedTypes: custom resources have no strategic merge patch. */
const customResourcePatchTypes = ["application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml"];

/** A served version: what the generic handlers need. */
export interface ServedVersion {
  def: ResourceDef;
  store: GenericStore;
}

/** crdInfo: one CRD's served versions, rebuilt when what they are built from changes. */
interface CRDInfo {
  resourceVersion: string;
  /** {@link servingKey} of the CRD the versions were built from. */
  key: string;
  crd: CustomResourceDefinition;
  versions: Map<string, ServedVersion>;
}

/**
 * What the served versions are built from: updateCustomResourceDefinition keeps a CRD's storage
 * when neither its spec nor its accepted names changed, so the status updates that accept its
 * names and establish it do not build its stores again. The Terminating condition is part of it
 * here, as the strategy refuses creates of a terminating CRD's objects.
 */
function servingKey(crd: CustomResourceDefinition): string {
  // stringifyJSON: a schema may hold int64 bigints (a default or enum beyond 2^53), which JSON.stringify refuses.
  return stringifyJSON([crd.spec, crd.status?.acceptedNames ?? null, isCRDConditionTrue(crd, "Terminating")]);
}

export interface CRDHandlerOptions {
  informer: StoreInformer;
  /** A GenericStore for a resource (with the server's admission), as the REST storage builds them. */
  newStore(def: ResourceDef): GenericStore;
  establishing: EstablishingController;
  /** The converters of the CRDs whose conversion strategy is Webhook (CRConverterFactory). */
  converters?: CRConverterFactory;
}

export class CRDHandler {
  readonly #o: CRDHandlerOptions;
  readonly #infos = new Map<string, CRDInfo>();
  #generation = 0;

  constructor(o: CRDHandlerOptions) {
    this.#o = o;
    const observe = (obj: KubeObject): void => {
      this.#generation++;
      const crd = obj as unknown as CustomResourceDefinition;
      // updateCustomResourceDefinition: the handler can serve it now, so it may become Established.
      if (isCRDConditionTrue(crd, "NamesAccepted") && !isCRDConditionTrue(crd, "Established"))
        o.establishing.queueCRD(crd.metadata.name ?? "");
    };
    o.informer.addEventHandler({
      onAdd: observe,
      onUpdate: (_old, n) => observe(n),
      onDelete: (obj) => {
        this.#generation++;
        this.#infos.delete(obj.metadata.name ?? "");
      },
    });
  }

  /**
   * Bumped on every CRD event: what {@link resources} returns may have changed. Consumers that index
   * the served resources (the admission's equivalent-resource mapper) rebuild only when it moves.
   */
  get generation(): number {
    return this.#generation;
  }

  /**
   * The served version for a request path, as ServeHTTP finds it: the CRD `<plural>.<group>`, the
   * version served, and the names accepted (or the CRD established).
   */
  lookup(group: string, version: string, resource: string): ServedVersion | undefined {
    const info = this.#info(`${resource}.${group}`);
    if (info === undefined) return undefined;
    if (!isCRDConditionTrue(info.crd, "NamesAccepted") && !isCRDConditionTrue(info.crd, "Established")) return undefined;
    return info.versions.get(version);
  }

  /** The served versions of the established CRDs, for discovery (DiscoveryController), each group's preferred version first. */
  resources(): ResourceDef[] {
    const out: ResourceDef[] = [];
    const crds = (this.#o.informer.list() as unknown as CustomResourceDefinition[])
      .filter((c) => isCRDConditionTrue(c, "Established"))
      .sort((a, b) => (a.spec.group < b.spec.group ? -1 : a.spec.group > b.spec.group ? 1 : 0));
    for (const c of crds) {
      const info = this.#info(c.metadata.name ?? "");
      if (info) for (const v of info.versions.values()) out.push(v.def);
    }
    // A group's versions in kube-aware order (the first is the preferred one), groups in name order.
    return out.sort((a, b) => (a.group !== b.group ? (a.group < b.group ? -1 : 1) : compareKubeAwareVersions(a.version, b.version)));
  }

  /** The store of a CRD's objects through its storage version (the finalizer deletes them through it). */
  instancesStore(crd: CustomResourceDefinition): GenericStore | undefined {
    const storage = crd.spec.versions.find((v) => v.storage);
    return storage ? this.#o.newStore(this.#resourceDef(crd, storage, this.#o.converters?.newConverter(crd))) : undefined;
  }

  #info(name: string): CRDInfo | undefined {
    const crd = this.#o.informer.get(name) as unknown as CustomResourceDefinition | undefined;
    if (crd === undefined) return undefined;
    const cached = this.#infos.get(name);
    const resourceVersion = crd.metadata.resourceVersion ?? "";
    if (cached && cached.resourceVersion === resourceVersion) return cached;
    const key = servingKey(crd);
    if (cached && cached.key === key && cached.crd.metadata.uid === crd.metadata.uid) {
      cached.crd = crd;
      cached.resourceVersion = resourceVersion;
      return cached;
    }
    const versions = new Map<string, ServedVersion>();
    // getOrCreateServingInfoFor: one converter per CRD, shared by its versions' storages.
    const converter = this.#o.converters?.newConverter(crd);
    for (const v of crd.spec.versions) {
      if (!v.served) continue;
      const def = this.#resourceDef(crd, v, converter);
      versions.set(v.name, { def, store: this.#o.newStore(def) });
    }
    const info = { resourceVersion, key, crd, versions };
    this.#infos.set(name, info);
    return info;
  }

  #resourceDef(crd: CustomResourceDefinition, v: CustomResourceDefinitionVersion, converter: CRConverter | undefined): ResourceDef {
    const names = crd.status?.acceptedNames ?? crd.spec.names;
    const strategy: RESTStrategy = newCustomResourceStrategy(crd, v, { terminating: isCRDConditionTrue(crd, "Terminating") });
    const storageVersion = crd.spec.versions.find((x) => x.storage) ?? v;
    const preserve = crd.spec.preserveUnknownFields === true;
    const kind = names.kind || crd.spec.names.kind;
    const coercer = newSchemaCoercer(v.schema?.openAPIV3Schema, preserve, { kind, version: v.name });
    const storageCoercer = storageVersion === v ? coercer : newSchemaCoercer(storageVersion.schema?.openAPIV3Schema, preserve);
    // Objects are stored in the storage version (conversion strategy None only rewrites apiVersion);
    // the storage encoder's schemaCoercingConverter prunes them with that version's schema, which
    // also drops what defaults put in an embedded ObjectMeta that ObjectMeta does not have.
    const storageGV = `${crd.spec.group}/${storageVersion.name}`;
    const servedGV = `${crd.spec.group}/${v.name}`;
    strategy.canonicalize = converter
      ? async (o) => {
          // The storage codec's encode: converted by the webhook; a failure is the write's plain error (a 500).
          const stored = await convertOrFail(converter, o, storageGV, (m) => StatusError.unknown(m));
          for (const k of Object.keys(o)) if (!(k in stored)) delete o[k];
          Object.assign(o, stored);
          storageCoercer.coerce(o);
        }
      : (o) => {
          o.apiVersion = storageGV;
          storageCoercer.coerce(o);
        };
    strategy.defaults = (o) => coercer.defaults(o);
    // The storage decoder prunes and defaults an object with the schema of the version it was
    // stored in (an earlier storage version's objects, before a migration rewrites them).
    const readers = new Map<string, SchemaCoercer>([[storageGV, storageCoercer]]);
    const readerOf = (o: KubeObject): SchemaCoercer => {
      const gv = typeof o.apiVersion === "string" ? o.apiVersion : storageGV;
      let r = readers.get(gv);
      const stored = crd.spec.versions.find((x) => `${crd.spec.group}/${x.name}` === gv);
      if (r === undefined) readers.set(gv, (r = stored ? newSchemaCoercer(stored.schema?.openAPIV3Schema, preserve) : storageCoercer));
      return r;
    };
    // The storage codec (versioning codec Decode) defaults an object in the version it was stored
    // in, before the webhook converts it to this version.
    const fromStorage = converter
      ? async (o: KubeObject): Promise<KubeObject> => {
          const read = readerOf(o).read(o);
          return read.apiVersion === servedGV ? read : convertOrFail(converter, read, servedGV, (m) => StatusError.internal(m));
        }
      : undefined;
    // The storage codec's decode, whose decoder version is the handler's (crdConversionRESTOptionsGetter's
    // decoderVersion, the request scope's HubGroupVersion): an update's patch, admission and
    // validation see the old and new objects in the version of the request, not the storage
    // version. Pruned and defaulted with the storage version's schema (by fromStorage, with a
    // webhook), then pruned with this one's (schemaCoercingConverter): a version read is not
    // defaulted in its own schema (conversion_test.go validateDefaulting).
    const decode = (o: KubeObject): KubeObject => {
      const read = converter ? structuredClone(o) : storageCoercer.read(o);
      if (converter || storageCoercer !== coercer) coercer.coerce(read);
      read.apiVersion = servedGV;
      return read;
    };
    strategy.decode = fromStorage ? async (o) => decode(await fromStorage(o)) : decode;
    const subresources = [...(v.subresources?.status !== undefined ? ["status"] : []), ...(v.subresources?.scale ? ["scale"] : [])];
    return {
      group: crd.spec.group,
      version: v.name,
      resource: crd.spec.names.plural,
      kind: names.kind || crd.spec.names.kind,
      listKind: names.listKind || `${names.kind || crd.spec.names.kind}List`,
      singular: names.singular ?? "",
      namespaced: crd.spec.scope === "Namespaced",
      shortNames: names.shortNames ?? [],
      categories: names.categories ?? [],
      verbs: readWriteVerbs,
      subresources,
      patchTypes: customResourcePatchTypes,
      storagePath: `${crd.spec.group}/${crd.spec.names.plural}`,
      strategy,
      schema: undefined,
      printer: newTableConvertor(v.additionalPrinterColumns),
      coerce: (o, opts) => coercer.coerce(o, opts),
      ...(v.schema?.openAPIV3Schema ? { fieldSchema: v.schema.openAPIV3Schema } : {}),
      ...(v.subresources?.scale
        ? {
            subresourceViews: {
              scale: customResourceScaleView(crd.spec.group, crd.spec.names.plural, v.subresources.scale, replicasPaths(crd)),
            },
          }
        : {}),
      toVersion: (o) => {
        const { apiVersion, kind: _k, ...rest } = decode(o);
        return { kind, apiVersion, ...rest };
      },
      ...(fromStorage ? { fromStorage } : {}),
      ...(v.deprecated === true ? { deprecationWarning: v.deprecationWarning ?? defaultDeprecationWarning(v.name, crd.spec) } : {}),
    };
  }
}

/**
 * `obj` converted to `toGV` (an object already there is not sent); what the converter reports
 * becomes `fail`'s StatusError: the read's internal error, or the write's plain 500.
 */
async function convertOrFail(
  converter: CRConverter,
  obj: KubeObject,
  toGV: string,
  fail: (message: string) => StatusError,
): Promise<KubeObject> {
  if (obj.apiVersion === toGV) return obj;
  try {
    return await converter.convert(obj, toGV);
  } catch (e) {
    throw fail((e as Error).message);
  }
}

/**
 * customresource_handler.go defaultDeprecationWarning: names the served, non-deprecated version of
 * highest priority above the deprecated one, if there is one.
 */
function defaultDeprecationWarning(deprecated: string, spec: CustomResourceDefinition["spec"]): string {
  const msg = `${spec.group}/${deprecated} ${spec.names.kind} is deprecated`;
  const newer = spec.versions
    .filter((v) => v.served && v.deprecated !== true && compareKubeAwareVersions(deprecated, v.name) > 0)
    .map((v) => v.name)
    .sort(compareKubeAwareVersions);
  return newer.length === 0 ? msg : `${msg}; use ${spec.group}/${newer[0]} ${spec.names.kind}`;
}

/**
 * The replicas field of each version of a CRD (customresource_handler.go's
 * replicasPathInCustomResource): the specReplicasPath split at its dots, null for a version
 * without a scale subresource.
 */
function replicasPaths(crd: CustomResourceDefinition): Map<string, readonly string[] | null> {
  const out = new Map<string, readonly string[] | null>();
  for (const v of crd.spec.versions) {
    const path = v.subresources?.scale?.specReplicasPath;
    out.set(`${crd.spec.group}/${v.name}`, path === undefined ? null : path.replace(/^\./, "").split("."));
  }
  return out;
}
