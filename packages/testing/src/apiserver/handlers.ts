/** The object-tracker answers of the fake apiserver for each verb (no reactor took the action). */
import type { ServerResponse } from "node:http";
import { mergePatch } from "./merge-patch.ts";
import type { Action } from "./reactors.ts";
import { apiVersionOf, groupResource, type ResourceInfo } from "./resources.ts";
import { fieldMatcher, labelMatcher } from "./selectors.ts";
import type { TableBuilder } from "./table.ts";
import { conflict, failure, FakeStatusError } from "./status.ts";
import type { KubeObject, ObjectTracker } from "./tracker.ts";
import { serveWatch } from "./watch.ts";

export interface HandlerContext {
  tracker: ObjectTracker;
  action: Action;
  accept: string;
  contentType: string;
  table: TableBuilder | undefined;
  now: () => Date;
  streams: Set<ServerResponse>;
}

export function send(res: ServerResponse, code: number, body: unknown): void {
  res.writeHead(code, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

const withKind = (r: ResourceInfo, o: KubeObject): KubeObject => ({
  ...o,
  apiVersion: o.apiVersion ?? apiVersionOf(r),
  kind: o.kind ?? r.kind,
});

/** Serves the action from the tracker; StatusErrors become their Status responses. */
export function handleResource(ctx: HandlerContext, res: ServerResponse): void {
  try {
    serve(ctx, res);
  } catch (e) {
    if (!(e instanceof FakeStatusError)) throw e;
    send(res, e.status.code, e.status);
  }
}

function serve(ctx: HandlerContext, res: ServerResponse): void {
  const { tracker, action: a } = ctx;
  const r = a.resource;
  const body = (a.body ?? {}) as KubeObject;
  const wantsTable = ctx.table !== undefined && ctx.accept.includes("as=Table");
  const table = (objs: KubeObject[], listMeta?: { resourceVersion: string }): unknown => {
    const includeObject =
      a.query.get("includeObject") === "None" ? "None" : a.query.get("includeObject") === "Metadata" ? "Metadata" : "Object";
    return ctx.table!(r, objs, { now: ctx.now(), includeObject, ...(listMeta ? { listMeta } : {}) });
  };
  switch (a.verb) {
    case "watch":
      return serveWatch(
        tracker,
        { resource: r, namespace: a.namespace, query: a.query, table: wantsTable ? (o) => table([o]) ?? o : undefined },
        res,
        ctx.streams,
      );
    case "get": {
      const got = tracker.get(r, a.namespace, a.name!);
      const t = wantsTable ? table([got], { resourceVersion: tracker.resourceVersion() }) : undefined;
      return send(res, 200, t ?? withKind(r, got));
    }
    case "list": {
      const labels = labelMatcher(a.query.get("labelSelector"));
      const fields = fieldMatcher(a.query.get("fieldSelector"));
      const items = tracker.list(r, a.namespace).filter((o) => labels(o) && fields(o));
      const listMeta = { resourceVersion: tracker.resourceVersion() };
      const t = wantsTable ? table(items, listMeta) : undefined;
      return send(res, 200, t ?? { kind: `${r.kind}List`, apiVersion: apiVersionOf(r), metadata: listMeta, items });
    }
    case "create":
      return send(res, 201, withKind(r, tracker.create(r, body, a.namespace)));
    case "update":
      return send(res, 200, withKind(r, tracker.update(r, body, a.namespace, a.name!, a.subresource)));
    case "patch":
      return patch(ctx, res, body);
    case "delete": {
      const { deleted, object } = tracker.delete(r, a.namespace, a.name!);
      if (!deleted) return send(res, 200, withKind(r, object));
      return send(res, 200, {
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Success",
        details: { name: a.name, group: r.group, kind: r.name, uid: object.metadata?.uid },
      });
    }
  }
}

/**
 * Server-side apply (the whole object is the applier's; another manager's object conflicts
 * unless force=true) and JSON merge patch; other patch types are 415 here.
 */
function patch(ctx: HandlerContext, res: ServerResponse, body: KubeObject): void {
  const { tracker, action: a } = ctx;
  const r = a.resource;
  const name = a.name!;
  const type = ctx.contentType.split(";")[0]!.trim();
  const current = tracker.list(r, a.namespace).find((o) => o.metadata?.name === name);
  if (type === "application/apply-patch+yaml") {
    const owners = tracker.appliers;
    const key = `${groupResource(r)}/${a.namespace ?? ""}/${name}`;
    const manager = a.query.get("fieldManager") ?? "";
    const owner = current === undefined ? undefined : owners.get(key);
    if (owner !== undefined && owner !== manager && a.query.get("force") !== "true") {
      throw new FakeStatusError({
        ...conflict(r, name, "").status,
        message: `Apply failed with 1 conflict: conflict with "${owner}": .spec`,
      });
    }
    owners.set(key, manager);
    const applied = { ...body, metadata: { ...body.metadata, resourceVersion: undefined } } as KubeObject;
    if (current === undefined) return send(res, 201, withKind(r, tracker.create(r, applied, a.namespace)));
    return send(res, 200, withKind(r, tracker.update(r, applied, a.namespace, name)));
  }
  if (type === "application/merge-patch+json" || type === "application/strategic-merge-patch+json") {
    if (current === undefined) return void tracker.get(r, a.namespace, name);
    const merged = mergePatch(current, body) as KubeObject;
    return send(
      res,
      200,
      withKind(
        r,
        tracker.update(
          r,
          { ...merged, metadata: { ...merged.metadata, resourceVersion: body.metadata?.resourceVersion } },
          a.namespace,
          name,
          a.subresource,
        ),
      ),
    );
  }
  send(
    res,
    415,
    failure(
      415,
      "UnsupportedMediaType",
      `the body of the request was in an unknown format - accepted media types include: application/apply-patch+yaml, application/merge-patch+json, application/strategic-merge-patch+json`,
    ),
  );
}
