/**
 * The resource handlers (k8s.io/apiserver endpoints/handlers): get, list, watch, create, update,
 * patch, delete and deletecollection, on top of the generic REST store.
 */
import { DeleteOptionsSchema, safeParseCompiled, StatusError, type DeleteOptions } from "@servicenet/api";
import { parse as parseYAML } from "yaml";
import type { UserInfo } from "../authentication/user/user.ts";
import { deepCopy, type KubeObject } from "../storage/index.ts";
import { decodeBody, decodeBodyInTurns, decodeValue, parseBody, parseFieldValidation, preservesInts, wrapPatchedInts } from "./codec.ts";
import { deprecationWarning, warningHeader } from "./deprecation.ts";
import { EncodedJSON, readBody, send } from "./http.ts";
import { bodyFormat, negotiateOutputStream } from "./negotiation.ts";
import {
  applyPatch,
  checkName,
  checkNesting,
  checkPatchedObject,
  patchTypeOf,
  prepareFieldSets,
  updateManagedFields,
  type JSONObject,
} from "./patch/index.ts";
import { TurnBudget } from "../util/eventloop/turn-budget.ts";
import { writeListStreaming } from "./list-stream.ts";
import { encodedCacheOf } from "./encoded-cache.ts";
import { objectJSON, objectJSONInTurns, renderList, renderObject, streamedList } from "./present.ts";
import { fieldManagerOf, parseDeleteParams, parseDryRun, parseListParams, parseTimeoutSeconds, parseWatchFlags } from "./query.ts";
import { queryBool } from "./query-conversion.ts";
import type { RequestInfo } from "./request-info.ts";
import { apiVersionOf, verbsOfSubresource, type ResourceDef } from "./resources.ts";
import { inEndpointVersion } from "./endpoint-version.ts";
import type { SubresourceCreate } from "../registry/core/pod/storage/binding.ts";
import { checkRoute } from "./routes.ts";
import { keepNoOp } from "./no-op.ts";
import { serveWatch } from "./watch.ts";
import { handleSubresourceView } from "./subresource-view.ts";
import { RequestAdmission } from "./admission.ts";
import { inServedVersion, listInServedVersion } from "./served-version.ts";
import { dedupOwnerReferencesAndAddWarning } from "./owner-references.ts";
import type { ResourceRequest } from "./resource-request.ts";

export type { ResourceRequest } from "./resource-request.ts";

const groupResource = (def: ResourceDef) => ({ group: def.group, resource: def.resource });
const verbsOf = (def: ResourceDef, info: RequestInfo): readonly string[] =>
  info.subresource !== "" ? verbsOfSubresource(def, info.subresource) : def.verbs;

/** Serves one resource request; returns the HTTP code written. */
export async function handleResource(r: ResourceRequest): Promise<number> {
  const { info, def } = r;
  // go-restful picks the route first: a 404 or 405 there never reaches a handler, nor its warnings.
  checkRoute(def, info, r.req.method ?? "");
  // Before anything else can fail: upstream adds the deprecation warning ahead of the handler.
  const deprecated = def.deprecationWarning ?? deprecationWarning(def);
  if (deprecated !== undefined) r.res.setHeader("Warning", [warningHeader(deprecated)]);
  if (info.verb === "" || !verbsOf(def, info).includes(info.verb)) throw StatusError.methodNotSupported(groupResource(def), info.verb);
  r.onRouted?.();
  const view = def.subresourceViews?.[info.subresource];
  if (view !== undefined) return handleSubresourceView(r, view);
  switch (info.verb) {
    case "get": {
      const budget = new TurnBudget();
      // Only encoded (from the encoded-object cache when it holds this version): a large object is decoded once per version.
      const obj = await r.store.get(info.namespace, info.name, r.query.get("resourceVersion") ?? undefined, true);
      // Decoding a near-limit object and encoding it are each long: others run between them.
      await budget.maybeYield();
      return okInTurns(r, 200, obj, [], budget);
    }
    case "list": {
      // Read-only: the items are only decorated and encoded, so they may be the stored objects' shared decodings.
      const list = await listInServedVersion(def, await r.store.list(info.namespace, { ...parseListParams(r.query), readOnly: true }));
      if (r.format === "json" || r.format === "partial")
        await writeListStreaming(r.res, 200, listHeaders(), streamedList(def, list, r.format, encodedCacheOf(r.store)));
      else send(r.res, 200, renderList(def, list, r.format, r.query), r.format);
      return 200;
    }
    case "watch":
      return watch(r);
    case "create":
      return create(r);
    case "update":
      return update(r);
    case "patch":
      return patch(r);
    case "delete":
      return remove(r);
    case "deletecollection":
      return removeCollection(r);
    default:
      throw StatusError.methodNotSupported(groupResource(def), info.verb);
  }
}

/** The headers `send` gives a JSON or partial-metadata list (both are application/json). */
function listHeaders(): Record<string, string> {
  return { "Content-Type": "application/json", "Cache-Control": "no-cache, private" };
}

/**
 * Answers `obj`. `stored`: it is the object as stored at its resourceVersion (a GET, or a write's
 * result that is not a dry run), so its JSON comes from and goes into the resource's encoded cache,
 * for the watch events and LISTs of the same version.
 */
function ok(r: ResourceRequest, code: number, obj: KubeObject, warnings: string[] = [], stored = false): number {
  const body =
    stored && r.format === "json"
      ? new EncodedJSON(objectJSON(r.def, obj, encodedCacheOf(r.store)))
      : renderObject(r.def, obj, r.format, r.query);
  send(r.res, code, body, r.format, warnings);
  return code;
}

/**
 * `ok` for a write's result or a GET: a near-limit object as stored has its JSON written in turns
 * (server/large-maps.ts); a dry run's object was never stored (no encoded cache), and is written
 * in one step as `ok` writes it.
 */
async function okInTurns(
  r: ResourceRequest,
  code: number,
  obj: KubeObject,
  warnings: string[],
  budget: TurnBudget,
  dryRun = false,
): Promise<number> {
  // Converted by a webhook, the answer is no longer the stored object the encoded cache holds.
  if (r.def.fromStorage !== undefined) return ok(r, code, await inServedVersion(r.def, obj), warnings);
  if (dryRun) return ok(r, code, obj, warnings);
  if (r.format !== "json") return ok(r, code, obj, warnings, true);
  send(r.res, code, new EncodedJSON(await objectJSONInTurns(r.def, obj, encodedCacheOf(r.store), budget)), r.format, warnings);
  return code;
}

async function watch(r: ResourceRequest): Promise<number> {
  negotiateOutputStream(r.req.headers.accept);
  const lp = parseListParams(r.query);
  // A watch on /<resource>/<name> is a watch with metadata.name=<name>.
  const fieldSelector =
    r.info.name !== ""
      ? [...(lp.fieldSelector ?? []), { field: "metadata.name", operator: "=" as const, value: r.info.name }]
      : lp.fieldSelector;
  const timeout = parseTimeoutSeconds(r.query);
  const flags = parseWatchFlags(r.query);
  // An unsupported field label is this request's 400 before any stream starts (handlers/get.go
  // ListResource fails when rw.Watch does), not an ERROR event in a 200.
  r.store.predicate(lp.labelSelector, fieldSelector);
  await serveWatch(r.req, r.res, {
    def: r.def,
    store: r.store,
    namespace: r.info.namespace,
    params: {
      ...(lp.labelSelector ? { labelSelector: lp.labelSelector } : {}),
      ...(fieldSelector ? { fieldSelector } : {}),
      ...(lp.resourceVersion !== undefined ? { resourceVersion: lp.resourceVersion } : {}),
      allowBookmarks: flags.allowWatchBookmarks,
    },
    format: r.format,
    query: r.query,
    ...(timeout !== undefined ? { timeoutSeconds: timeout } : {}),
    sendInitialEvents: flags.sendInitialEvents,
    shutdown: r.shutdown,
  });
  return 200;
}

async function bodyText(r: ResourceRequest): Promise<string> {
  return (await readBody(r.req)).toString("utf8");
}

async function bodyBytes(r: ResourceRequest): Promise<Buffer> {
  return readBody(r.req);
}

function withManagedFields(r: ResourceRequest, old: KubeObject | undefined, obj: KubeObject): KubeObject {
  const manager = fieldManagerOf(r.query, r.req.headers["user-agent"]);
  return updateManagedFields(
    old as unknown as JSONObject | undefined,
    obj as unknown as JSONObject,
    manager,
    "Update",
    apiVersionOf(r.def),
    new Date(),
    r.info.subresource || undefined,
    r.def.fieldSchema,
  ) as unknown as KubeObject;
}

/** The request's user for the store (upstream's request context carries it). */
const userOf = (r: ResourceRequest): { user?: UserInfo } => (r.user ? { user: r.user } : {});

/** The body's own version when the subresource accepts it (a policy/v1beta1 Eviction), else undefined. */
function acceptedVersion(sub: SubresourceCreate, group: string, body: Buffer, format: string): string | undefined {
  if (sub.acceptsVersions === undefined || format !== "json") return undefined;
  let apiVersion: unknown;
  try {
    apiVersion = (JSON.parse(body.toString("utf8")) as { apiVersion?: unknown }).apiVersion;
  } catch {
    return undefined;
  }
  return sub.acceptsVersions.find((v) => apiVersion === `${group}/${v}`);
}

async function create(r: ResourceRequest): Promise<number> {
  const fv = parseFieldValidation(r.query.get("fieldValidation"));
  const format = bodyFormat(r.req.headers["content-type"]);
  const dryRun = parseDryRun(r.query);
  fieldManagerOf(r.query, r.req.headers["user-agent"]);
  const sub = r.def.subresourceCreate?.[r.info.subresource];
  if (sub !== undefined) {
    // A body of the subresource's own kind (a Binding), handed to its REST with the parent's name.
    // Its kind may be of another group version (serviceaccounts/token: authentication.k8s.io/v1 TokenRequest).
    const body = await bodyBytes(r);
    const group = sub.group ?? r.def.group;
    const gvk = { group, version: acceptedVersion(sub, group, body, format) ?? sub.version ?? r.def.version, kind: sub.kind };
    const { obj, warnings } = decodeBody({ ...r.def, ...gvk, schema: sub.schema }, body, format, fv);
    // create.go: mutating admission of the subresource's object; its REST calls createValidation.
    const adm = new RequestAdmission(r, "CREATE", dryRun, warnings, gvk);
    await adm.admit(obj, undefined);
    const auditAnnotations: Record<string, string> = {};
    const out = await sub.create(r.store, r.info.namespace, r.info.name, obj, {
      dryRun,
      warnings,
      auditAnnotations,
      ...userOf(r),
      ...adm.storeHooks(),
    });
    if (r.audit !== undefined && Object.keys(auditAnnotations).length > 0)
      r.audit.annotations = { ...r.audit.annotations, ...auditAnnotations };
    adm.report();
    send(r.res, 201, out, r.format === "yaml" ? "yaml" : "json", warnings);
    return 201;
  }
  // A huge body (a 1.2 MB object of 100,000 labels) takes long at each step: others run between them.
  const budget = new TurnBudget();
  const { obj, warnings } = await decodeBodyInTurns(r.def, await bodyBytes(r), format, fv, budget);
  await budget.maybeYield();
  const adm = new RequestAdmission(r, "CREATE", dryRun, warnings);
  dedupOwnerReferencesAndAddWarning(obj, warnings, false);
  // The field sets of a near-limit body's labels, built a slice at a time for the managed fields.
  await prepareFieldSets(obj as unknown as JSONObject, budget);
  const managed = withManagedFields(r, undefined, obj);
  await budget.maybeYield();
  // create.go: mutating admission before the store; validating admission after the strategy's
  // validation. Each warns as it runs, into the one list, so the Warning headers keep that order.
  await adm.admit(managed, undefined);
  dedupOwnerReferencesAndAddWarning(managed, warnings, true);
  const created = await r.store.create(r.info.namespace, managed, { dryRun, warnings, ...userOf(r), ...adm.storeHooks() });
  adm.report();
  await budget.maybeYield();
  return okInTurns(r, 201, created, warnings, budget, dryRun);
}

async function update(r: ResourceRequest): Promise<number> {
  const fv = parseFieldValidation(r.query.get("fieldValidation"));
  const format = bodyFormat(r.req.headers["content-type"]);
  const dryRun = parseDryRun(r.query);
  const budget = new TurnBudget();
  const { obj, warnings } = await decodeBodyInTurns(r.def, await bodyBytes(r), format, fv, budget);
  await budget.maybeYield();
  checkName(obj.metadata, { name: r.info.name, namespace: r.def.namespaced ? r.info.namespace : undefined });
  // A uid in the body is a storage precondition, as upstream's defaultUpdatedObjectInfo makes it: another uid is a 409.
  const uid = obj.metadata.uid;
  const adm = new RequestAdmission(r, "UPDATE", dryRun, warnings);
  dedupOwnerReferencesAndAddWarning(obj, warnings, false);
  const result = await r.store.update(
    r.info.namespace,
    r.info.name,
    async (current) => {
      await budget.maybeYield();
      // A copy per attempt: the strategy changes the object in place, and a retry starts over.
      const attempt = deepCopy(obj);
      await budget.maybeYield();
      const next = withManagedFields(r, current ?? undefined, attempt);
      await budget.maybeYield();
      // update.go's transformers: mutating admission on each attempt, against the object it replaces.
      await adm.admit(next, current ?? undefined, current ? "UPDATE" : "CREATE");
      dedupOwnerReferencesAndAddWarning(next, warnings, true);
      return keepNoOp(current, next);
    },
    {
      dryRun,
      subresource: r.info.subresource,
      warnings,
      ...(uid ? { preconditions: { uid } } : {}),
      ...userOf(r),
      ...adm.storeHooks(),
    },
  );
  adm.report();
  await budget.maybeYield();
  const code = result.created ? 201 : 200;
  return okInTurns(r, code, result.object, warnings, budget, dryRun);
}

async function patch(r: ResourceRequest): Promise<number> {
  const contentType = r.req.headers["content-type"] ?? "";
  const type = patchTypeOf(contentType, r.def.patchTypes);
  const fv = parseFieldValidation(r.query.get("fieldValidation"));
  const dryRun = parseDryRun(r.query);
  const isApply = type === "application/apply-patch+yaml";
  const manager = fieldManagerOf(r.query, r.req.headers["user-agent"]);
  if (isApply && r.query.get("fieldManager") === null) {
    throw StatusError.badRequest('PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
  }
  const text = await bodyText(r);
  if (isApply) checkApplyBody(r.def, text);
  // patch.go: every attempt adds its decoding warnings to the request's recorder, which keeps each once.
  const warnings: string[] = [];
  const adm = new RequestAdmission(r, "UPDATE", dryRun, warnings);
  // A patch of a near-limit object takes long at each step (patch, managed fields, decode): others run between them.
  const budget = new TurnBudget();
  const result = await r.store.update(
    r.info.namespace,
    r.info.name,
    async (current) => {
      await budget.maybeYield();
      // The store hands the stored object over decoded (its strategy's decode), in the version that
      // last wrote it: the patch applies to it in this endpoint's version (patch.go applyPatch).
      const base = current && inEndpointVersion(r.def, current);
      const patched = applyPatch(type, (base ?? undefined) as unknown as JSONObject | undefined, text, {
        fieldManager: manager,
        force: queryBool(r.query, "force") ?? false,
        schemaKind: r.def.kind,
        apiVersion: apiVersionOf(r.def),
        now: new Date(),
        groupResource: { group: r.def.group, resource: r.def.resource },
        name: r.info.name,
        ...(r.info.subresource ? { subresource: r.info.subresource } : {}),
        preserveInts: preservesInts(r.def),
        unstructured: r.def.coerce !== undefined,
        ...(r.def.fieldSchema ? { schema: r.def.fieldSchema } : {}),
      });
      // Upstream decodes a JSON or merge patch's result as JSON (type errors are 422 there); strategic
      // merge and apply results go through unstructured conversion instead.
      const jsonResult = type === "application/json-patch+json" || type === "application/merge-patch+json";
      await budget.maybeYield();
      if (type === "application/strategic-merge-patch+json") wrapPatchedInts(r.def, patched.object);
      // An apply result is not decoded upstream: validation sees the nulls apply left, the storage codec prunes them.
      const decoded = decodeValue(r.def, patched.object, fv, [], { typeErrors: jsonResult ? "patch" : "none", keepNulls: isApply });
      checkPatchedObject(current ?? undefined, decoded.obj, {
        name: r.info.name,
        namespace: r.def.namespaced ? r.info.namespace : undefined,
        groupResource: groupResource(r.def),
      });
      for (const w of decoded.warnings) if (!warnings.includes(w)) warnings.push(w);
      await budget.maybeYield();
      // patch.go: mutating admission of the patched object, before the strategy validates it.
      await adm.admit(decoded.obj, current ?? undefined, current ? "UPDATE" : "CREATE");
      // patch.go dedups only after mutating admission (dedupOwnerReferencesTransformer).
      dedupOwnerReferencesAndAddWarning(decoded.obj, warnings, true);
      return keepNoOp(current, decoded.obj);
    },
    { dryRun, subresource: r.info.subresource, forceAllowCreate: isApply, warnings, ...userOf(r), ...adm.storeHooks() },
  );
  adm.report();
  await budget.maybeYield();
  const code = result.created ? 201 : 200;
  return okInTurns(r, code, result.object, warnings, budget, dryRun);
}

/** An apply patch must be a whole object of this endpoint's apiVersion and kind (upstream 400s). */
function checkApplyBody(def: ResourceDef, text: string): void {
  // The depth limit before the YAML parser, which takes minutes over a 3 MiB nest of brackets.
  checkNesting(text);
  let v: unknown;
  try {
    v = parseYAML(text) as unknown;
  } catch {
    return; // applyPatch reports YAML errors in upstream's words
  }
  if (v === null || typeof v !== "object" || Array.isArray(v))
    throw StatusError.badRequest("error decoding patch: the apply patch is not an object");
  const o = v as Record<string, unknown>;
  if (typeof o["kind"] !== "string" || o["kind"] === "") throw StatusError.badRequest(`Object 'Kind' is missing in '${text.trim()}'`);
  if (o["apiVersion"] !== apiVersionOf(def) || o["kind"] !== def.kind) {
    throw StatusError.badRequest(
      `the API version in the data (${typeof o["apiVersion"] === "string" ? o["apiVersion"] : JSON.stringify(o["apiVersion"] ?? "")}) does not match the expected API version (${apiVersionOf(def)})`,
    );
  }
}

async function deleteOptions(r: ResourceRequest): Promise<DeleteOptions | undefined> {
  const raw = await bodyBytes(r);
  if (raw.toString("utf8").trim() === "") return undefined;
  const parsed = parseBody(raw, bodyFormat(r.req.headers["content-type"]));
  const d = safeParseCompiled(DeleteOptionsSchema, parsed);
  if (!d.success) throw StatusError.badRequest(`DeleteOptions: ${d.error.issues[0]?.message ?? "invalid"}`);
  return d.data;
}

function successStatus(r: ResourceRequest, obj: KubeObject): unknown {
  return {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Success",
    details: { name: obj.metadata.name ?? "", group: r.def.group, kind: r.def.resource, uid: obj.metadata.uid ?? "" },
  };
}

async function remove(r: ResourceRequest): Promise<number> {
  const opts = await deleteOptions(r);
  const params = parseDeleteParams(r.query, opts);
  const warnings: string[] = [];
  const adm = new RequestAdmission(r, "DELETE", params.dryRun ?? false, warnings);
  const { object, deleted } = await r.store.delete(r.info.namespace, r.info.name, { ...params, ...adm.storeHooks() });
  adm.report();
  // Upstream answers 202 for an object kept by finalizers only when orphanDependents=false was asked.
  const orphanFalse = params.orphanDependents === false;
  if (!deleted) return ok(r, orphanFalse ? 202 : 200, await inServedVersion(r.def, object), warnings);
  if (r.def.strategy.returnDeletedObject) return ok(r, 200, await inServedVersion(r.def, object), warnings);
  send(r.res, 200, successStatus(r, object), r.format === "yaml" ? "yaml" : "json", warnings);
  return 200;
}

async function removeCollection(r: ResourceRequest): Promise<number> {
  const params = parseDeleteParams(r.query, await deleteOptions(r));
  const lp = parseListParams(r.query);
  const warnings: string[] = [];
  const adm = new RequestAdmission(r, "DELETE", params.dryRun ?? false, warnings);
  const items = await r.store.deleteCollection(r.info.namespace, lp, { ...params, ...adm.storeHooks() });
  adm.report();
  const rv = items.reduce((m, o) => Math.max(m, Number(o.metadata.resourceVersion ?? 0)), 0);
  const converted = await listInServedVersion(r.def, { items, resourceVersion: String(rv) });
  send(r.res, 200, renderList(r.def, converted, r.format, r.query), r.format, warnings);
  return 200;
}
