/**
 * GET, PUT and PATCH of a subresource served as another kind (deployments/scale, answered as
 * autoscaling/v1 Scale): the view is computed from the stored parent, and a write changes the
 * parent through its own strategy (upstream ScaleREST.Get/Update with scaleUpdatedObjectInfo).
 */
import { StatusError } from "@servicenet/api";
import { defaultTableHandler } from "@servicenet/printers";
import type { GroupVersionKind } from "../admission/attributes.ts";
import type { SubresourceView } from "../registry/rest/subresource-view.ts";
import type { KubeObject } from "../storage/index.ts";
import { decodeBody, decodeValue, parseFieldValidation, wrapPatchedInts } from "./codec.ts";
import { RequestAdmission } from "./admission.ts";
import { readBody, send } from "./http.ts";
import { bodyFormat } from "./negotiation.ts";
import { applyPatch, patchTypeOf, updateManagedFields, type JSONObject, type JSONValue } from "./patch/index.ts";
import { parentEntriesFromScale, scaleEntriesFromParent } from "./patch/scale-handler.ts";
import { renderObject } from "./present.ts";
import { fieldManagerOf, parseDryRun } from "./query.ts";
import { inServedVersion } from "./served-version.ts";
import { queryBool } from "./query-conversion.ts";
import { apiVersionOf, type ResourceDef } from "./resources.ts";
import type { ResourceRequest } from "./resource-request.ts";

/** The resource definition the view is decoded and rendered with. */
function viewDef(def: ResourceDef, view: SubresourceView): ResourceDef {
  // The parent's own wire shape, body coercion and field schema (a custom resource's) are not the view's.
  const { toVersion: _toVersion, fromVersion: _fromVersion, coerce: _coerce, fieldSchema: _fieldSchema, ...parent } = def;
  return {
    ...parent,
    group: view.group,
    version: view.version,
    kind: view.kind,
    schema: view.schema,
    printer: defaultTableHandler,
    strategy: { ...def.strategy, defaults: () => {} },
  };
}

function answer(r: ResourceRequest, vdef: ResourceDef, code: number, obj: KubeObject, warnings: string[] = []): number {
  send(r.res, code, renderObject(vdef, obj, r.format, r.query), r.format, warnings);
  return code;
}

/** The view as admission sees it: typed as the view's kind, as upstream's Scale object is. */
function typedView(view: SubresourceView, obj: KubeObject): KubeObject {
  return { apiVersion: view.group === "" ? view.version : `${view.group}/${view.version}`, kind: view.kind, ...obj };
}

/**
 * The store's validating admission of the view (ScaleREST.Update's toScaleUpdateValidation and
 * toScaleCreateValidation): the plugins see the scale of the parent the store is about to write.
 */
function viewValidation(adm: RequestAdmission, view: SubresourceView): ReturnType<RequestAdmission["storeHooks"]> {
  const { updateValidation, deleteValidation: _delete, createValidation: _create } = adm.storeHooks();
  if (updateValidation === undefined) return {};
  return { updateValidation: (obj, old) => adm.validate(typedView(view, view.toView(obj)), typedView(view, view.toView(old)), "UPDATE") };
}

/** The view after validation, or a 422 naming the view's kind (`Scale.autoscaling "web" is invalid`). */
function validated(view: SubresourceView, obj: KubeObject, name: string): KubeObject {
  const errs = view.validate(obj);
  if (errs.length > 0) throw StatusError.invalid({ group: view.group, kind: view.kind }, name, errs);
  return obj;
}

/** Serves get, update or patch of `view` for `r`; returns the HTTP code written. */
export async function handleSubresourceView(r: ResourceRequest, view: SubresourceView): Promise<number> {
  const vdef = viewDef(r.def, view);
  const { namespace, name } = r.info;
  // ScaleREST.Get reads the parent through the storage codec, in the request's version: a
  // converted version's view reads its own replicas paths.
  if (r.info.verb === "get") return answer(r, vdef, 200, view.toView(await inServedVersion(r.def, await r.store.get(namespace, name))));
  const fv = parseFieldValidation(r.query.get("fieldValidation"));
  const dryRun = parseDryRun(r.query);
  const body = await readBody(r.req);
  const manager = fieldManagerOf(r.query, r.req.headers["user-agent"]);
  const subresource = r.info.subresource;
  const kind: GroupVersionKind = { group: view.group, version: view.version, kind: view.kind };
  const warnings: string[] = [];
  const adm = new RequestAdmission(r, "UPDATE", dryRun, warnings, kind);
  let next: (current: KubeObject) => KubeObject;
  if (r.info.verb === "update") {
    const { obj, warnings: decoded } = decodeBody(vdef, body, bodyFormat(r.req.headers["content-type"]), fv);
    // EnsureObjectNamespaceMatchesRequestNamespace: an empty namespace is the request's.
    if (r.def.namespaced && (obj.metadata.namespace ?? "") === "") obj.metadata.namespace = namespace;
    warnings.push(...decoded);
    next = (current) =>
      updateManagedFields(
        current as unknown as JSONObject,
        obj as unknown as JSONObject,
        manager,
        "Update",
        apiVersionOf(vdef),
        new Date(),
        subresource,
      ) as unknown as KubeObject;
  } else {
    const type = patchTypeOf(r.req.headers["content-type"] ?? "", r.def.patchTypes);
    next = (current) => {
      const patched = applyPatch(type, current as unknown as JSONObject, body.toString("utf8"), {
        fieldManager: manager,
        force: queryBool(r.query, "force") ?? false,
        schemaKind: view.kind,
        apiVersion: apiVersionOf(vdef),
        now: new Date(),
        groupResource: { group: r.def.group, resource: `${r.def.resource}/${subresource}` },
        name,
        ...(subresource ? { subresource } : {}),
        // Upstream patches the JSON bytes: an integer reaches the Scale's decoder as it was written.
        preserveInts: true,
      });
      // As for a resource's own patch (rest.ts): a JSON or merge patch's result is decoded into the
      // Go struct (an int32 overflow is the jsonPatcher's 422), a strategic merge patch's goes
      // through the unstructured converter, which wraps it.
      const jsonResult = type === "application/json-patch+json" || type === "application/merge-patch+json";
      if (type === "application/strategic-merge-patch+json") wrapPatchedInts(vdef, patched.object);
      return decodeValue(vdef, patched.object, fv, [], { typeErrors: jsonResult ? "patch" : "none" }).obj;
    };
  }
  const result = await r.store.update(
    namespace,
    name,
    async (current) => {
      if (current === null) throw StatusError.notFound({ group: r.def.group, resource: r.def.resource }, name);
      // ScaleHandler: the view carries the parent's owners of its replicas field, and what the
      // request's field manager leaves of them goes back to the parent's entries.
      const parentEntries = current.metadata.managedFields as JSONValue | undefined;
      const currentView = view.toView(current);
      const viewEntries = scaleEntriesFromParent(parentEntries, view.replicasPaths);
      if (viewEntries.length > 0) currentView.metadata.managedFields = viewEntries;
      // scaleUpdatedObjectInfo.UpdatedObject: update.go's transformers (mutating admission) run on
      // the new scale against the old one, before the scale is validated.
      const admitted = typedView(view, next(currentView));
      await adm.admit(admitted, typedView(view, currentView));
      const scale = validated(view, admitted, name);
      const parent = view.apply(current, scale);
      const entries = parentEntriesFromScale(
        parentEntries,
        scale.metadata.managedFields as JSONValue | undefined,
        view.replicasPaths,
        apiVersionOf(r.def),
      );
      if (entries.length > 0) parent.metadata.managedFields = entries;
      else delete parent.metadata.managedFields;
      return parent;
    },
    { dryRun, warnings, ...(r.user ? { user: r.user } : {}), ...viewValidation(adm, view) },
  );
  adm.report();
  return answer(r, vdef, 200, view.toView(await inServedVersion(r.def, result.object)), warnings);
}
