/**
 * Admission from the REST handlers (k8s.io/apiserver/pkg/endpoints/handlers/{create,update,patch,
 * delete}.go): the request's admission.Attributes, mutating admission before the object is
 * validated, and the validating admission the store calls after the strategy's validation
 * (rest.AdmissionToValidateObjectFunc and its update and delete forms). Warnings go out as
 * `Warning` headers, audit annotations into the request's audit event.
 *
 * Upstream's plugins add warnings to the request context as they run (warning.AddWarning), so the
 * request has one recorder in the order things happened: decoding, mutating admission, the
 * strategy's WarningsOnCreate/WarningsOnUpdate, validating admission. The plugins here write into
 * the same list the handler and the store write into.
 */
import type { Attributes, GroupVersionKind, Operation } from "../admission/attributes.ts";
import type { AdmissionContext } from "../admission/interfaces.ts";
import type { KubeObject } from "../storage/index.ts";
import { inEndpointVersion } from "./endpoint-version.ts";
import type { JSONValue } from "./patch/json-value.ts";
import { invalidManagedFieldsAfterMutatingAdmission, managedFieldsError } from "./patch/managed-fields-validate.ts";
import type { ResourceRequest } from "./resource-request.ts";

/**
 * What admission reads of a request: a resource request, or a review's create (which has no
 * storage, and whose resource is described by its own table).
 */
export type AdmittedRequest = Pick<ResourceRequest, "info" | "user" | "admission" | "audit" | "deadline"> & {
  def: Pick<ResourceRequest["def"], "group" | "version" | "resource" | "kind" | "namespaced" | "coerce">;
};

/** The request's options object as admission sees it (CreateOptions, UpdateOptions, PatchOptions, DeleteOptions). */
function optionsObject(kind: string, dryRun: boolean, fieldManager?: string): Record<string, unknown> {
  return {
    kind,
    apiVersion: "meta.k8s.io/v1",
    ...(dryRun ? { dryRun: ["All"] } : {}),
    ...(fieldManager ? { fieldManager } : {}),
  };
}

const optionsKind: Record<Operation, string> = {
  CREATE: "CreateOptions",
  UPDATE: "UpdateOptions",
  DELETE: "DeleteOptions",
  CONNECT: "",
};

/** One request's admission: attributes for each object, and what the plugins reported. */
export class RequestAdmission {
  readonly ctx: AdmissionContext;
  readonly #r: AdmittedRequest;
  readonly #op: Operation;
  readonly #dryRun: boolean;
  readonly #optionsKind: string;
  readonly #kind: GroupVersionKind | undefined;

  /**
   * `warnings` is the request's recorder: the plugins append to it as they run. `kind` is the
   * kind of a subresource served as another one (deployments/scale: autoscaling/v1 Scale).
   */
  constructor(r: AdmittedRequest, op: Operation, dryRun: boolean, warnings: string[] = [], kind?: GroupVersionKind) {
    this.#r = r;
    this.#kind = kind;
    this.#op = op;
    this.#dryRun = dryRun;
    this.#optionsKind = optionsKind[op];
    this.ctx = { warnings, auditAnnotations: {}, ...(r.deadline !== undefined ? { deadline: r.deadline } : {}) };
  }

  /** admission.NewAttributesRecord for `obj` (and the stored `old`). */
  attributes(obj: KubeObject | undefined, old: KubeObject | undefined, op: Operation = this.#op): Attributes {
    const { info, def, user } = this.#r;
    const name = info.name !== "" ? info.name : (obj?.metadata.name ?? "");
    // A Namespace's requests carry its name as their namespace (create.go; requestinfo.go for the others).
    const isNamespace = def.group === "" && def.resource === "namespaces";
    const kind = this.#kind ?? { group: def.group, version: def.version, kind: def.kind };
    // The stored object as this endpoint decodes it, whichever version last wrote it.
    const oldObject = old && inEndpointVersion(kind, old);
    return {
      operation: op,
      name,
      namespace: def.namespaced ? (info.namespace ?? obj?.metadata.namespace ?? "") : isNamespace ? name : "",
      resource: { group: def.group, version: def.version, resource: def.resource },
      subresource: info.subresource,
      kind,
      ...(obj !== undefined ? { object: obj } : {}),
      ...(oldObject !== undefined ? { oldObject } : {}),
      // A custom resource's own objects are unstructured (a subresource served as a kind is typed).
      ...(def.coerce !== undefined && this.#kind === undefined ? { unstructured: true } : {}),
      options: optionsObject(op === "CREATE" && this.#op === "UPDATE" ? "CreateOptions" : this.#optionsKind, this.#dryRun),
      dryRun: this.#dryRun,
      userInfo: user
        ? { username: user.name, uid: user.uid, groups: user.groups, ...(user.extra ? { extra: user.extra } : {}) }
        : { username: "" },
    };
  }

  /**
   * Mutating admission of `obj` in place, before the strategy validates it; managedFields a plugin
   * left undecodable are put back as they were, with a warning
   * (fieldmanager.NewManagedFieldsValidatingAdmissionController).
   */
  async admit(obj: KubeObject, old: KubeObject | undefined, op: Operation = this.#op): Promise<void> {
    const chain = this.#r.admission;
    if (!chain?.mutating) return;
    const before = obj.metadata.managedFields;
    try {
      await chain.admit(this.attributes(obj, old, op), this.ctx);
    } catch (e) {
      // admission.WithAudit records what the plugins annotated even when one refused.
      this.report();
      throw e;
    }
    const invalid = managedFieldsError(obj.metadata.managedFields as JSONValue | undefined);
    if (invalid === undefined) return;
    if (before === undefined) delete obj.metadata.managedFields;
    else obj.metadata.managedFields = before;
    const w = invalidManagedFieldsAfterMutatingAdmission + invalid;
    if (!this.ctx.warnings.includes(w)) this.ctx.warnings.push(w);
  }

  /** Validating admission, called by the store after the strategy's validation. */
  readonly validate = async (obj: KubeObject | undefined, old: KubeObject | undefined, op: Operation = this.#op): Promise<void> => {
    const chain = this.#r.admission;
    if (!chain?.validating) return;
    try {
      await chain.validate(this.attributes(obj, old, op), this.ctx);
    } catch (e) {
      // A denied request's Event carries the annotations too (admission.WithAudit records them as they come).
      this.report();
      throw e;
    }
  };

  /**
   * rest.AdmissionToValidateObjectDeleteFunc: a delete is admitted where the store has the object,
   * by the mutating plugins (with a copy of it) and then the validating ones.
   */
  readonly #deleteAdmission = async (old: KubeObject): Promise<void> => {
    const chain = this.#r.admission;
    if (chain?.mutating) {
      try {
        await chain.admit(this.attributes(undefined, structuredClone(old), "DELETE"), this.ctx);
      } catch (e) {
        this.report();
        throw e;
      }
    }
    await this.validate(undefined, old, "DELETE");
  };

  /** The store's validation hooks for this request. */
  storeHooks(): {
    createValidation?: (obj: KubeObject) => Promise<void>;
    updateValidation?: (obj: KubeObject, old: KubeObject) => Promise<void>;
    deleteValidation?: (obj: KubeObject) => Promise<void>;
  } {
    const chain = this.#r.admission;
    if (!chain?.validating && !chain?.mutating) return {};
    const deleteValidation = this.#deleteAdmission;
    if (!chain.validating) return { deleteValidation };
    return {
      createValidation: (obj) => this.validate(obj, undefined, "CREATE"),
      updateValidation: (obj, old) => this.validate(obj, old, "UPDATE"),
      deleteValidation,
    };
  }

  /** Records the plugins' audit annotations in the request's audit event (their warnings are already recorded). */
  report(): void {
    const audit = this.#r.audit;
    if (Object.keys(this.ctx.auditAnnotations).length === 0 || !audit) return;
    audit.annotations = { ...audit.annotations, ...this.ctx.auditAnnotations };
    const levels = this.ctx.auditAnnotationLevels;
    if (levels && Object.keys(levels).length > 0) audit.annotationLevels = { ...audit.annotationLevels, ...levels };
  }
}
