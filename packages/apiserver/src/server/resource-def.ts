/**
 * What the server knows of one served resource: what discovery publishes (scope, verbs, short
 * names, categories, singular name, kind) and what the handlers use (storage path, strategy, schema
 * for decoding, table printer). Its own file so that a group's storage module can build its
 * definitions without importing the whole resource table.
 */
import type { TableHandler } from "@servicenet/printers";
import type { FieldSchema } from "./patch/index.ts";
import type { SubresourceCreate } from "../registry/core/pod/storage/binding.ts";
import type { RESTStrategy } from "../registry/generic/strategy.ts";
import type { SubresourceView } from "../registry/rest/subresource-view.ts";
import type { KubeObject } from "../storage/index.ts";

/** One served resource of one group version. */
/** How a custom resource's coercer fits an object to its schema. */
export interface CoerceOptions {
  /**
   * Keep the nulls the schema does not allow (PruneNonNullableNullsWithoutDefaults skipped): an
   * apply result, which upstream validates unconverted and only the storage codec prunes.
   */
  keepNulls?: boolean;
}

export interface ResourceDef {
  group: string;
  version: string;
  /** Plural name, `services`. */
  resource: string;
  kind: string;
  singular: string;
  namespaced: boolean;
  shortNames: readonly string[];
  categories: readonly string[];
  verbs: readonly string[];
  subresources: readonly string[];
  /** Verbs of a subresource that does not serve get/patch/update (namespaces/finalize: update only). */
  subresourceVerbs?: Readonly<Record<string, readonly string[]>>;
  /** Subresources served by POST with a body of their own kind (pods/binding). */
  subresourceCreate?: Readonly<Record<string, SubresourceCreate>>;
  /** Subresources served as another kind over this resource's storage (deployments/scale). */
  subresourceViews?: Readonly<Record<string, SubresourceView>>;
  /** Storage path under /registry; resources sharing it share one GenericStore. */
  storagePath: string;
  strategy: RESTStrategy;
  /** zod schema request bodies are decoded with; undefined = accepted as sent (no unknown-field checks). */
  schema: unknown;
  /** The Table handler (pkg/printers/internalversion) for `as=Table`. */
  printer: TableHandler<KubeObject>;
  /** The list kind when it is not `<kind>List` (a CRD's `names.listKind`). */
  listKind?: string;
  /** The patch media types served, when not all of them (custom resources: no strategic merge patch). */
  patchTypes?: readonly string[];
  /** A CRD version's `deprecationWarning` (or its default), sent as a `Warning` on every request. */
  deprecationWarning?: string;
  /**
   * Custom resources (no zod schema): prunes a decoded body against the structural schema in place
   * and returns the unknown fields' paths for fieldValidation (unstructuredSchemaCoercer.apply).
   */
  coerce?: (obj: Record<string, unknown>, opts?: CoerceOptions) => string[];
  /**
   * A typed kind with apiextensionsv1.JSON fields (the CRD's schema defaults): its bodies and
   * patches are parsed with int64s kept, and this turns the bigints outside those fields back
   * into the numbers JSON.parse gives, in place.
   */
  retypeInts?: (obj: Record<string, unknown>) => void;
  /** Custom resources: the version's schema, whose undeclared fields managedFields count as members. */
  fieldSchema?: FieldSchema;
  /** Stored object -> this version's wire shape; apiVersion/kind are set by the server otherwise. */
  toVersion?: (obj: KubeObject) => KubeObject;
  /**
   * A stored object -> this version, when that is asynchronous (a custom resource whose CRD converts
   * by Webhook); the handlers apply it to what they read before toVersion presents it.
   */
  fromStorage?: (obj: KubeObject) => Promise<KubeObject>;
  /** This version's shape -> the stored one, for a version whose fields differ from storage's (events.k8s.io/v1). */
  fromVersion?: (obj: KubeObject) => KubeObject;
}
