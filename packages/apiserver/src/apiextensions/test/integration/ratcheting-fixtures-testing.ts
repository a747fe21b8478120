/**
 * The operations of upstream test/integration/ratcheting_test.go over HTTP: a server-side apply of
 * a `mycrds.mygroup.example.com` object (and of the same fields under `status` through the status
 * subresource), and a replacement or merge patch of the v1beta1 schema that waits until the new
 * schema is served (a sentinel enum only the new schema knows shows up in an error).
 */
import { randomUUID } from "node:crypto";
import { eventually } from "@servicenet/testing";
import { expect } from "vitest";
import { applyMergePatch } from "../../../server/patch/merge-patch.ts";
import type { JSONValue } from "../../../server/patch/json-value.ts";
import type { TestServer } from "../../../server/testing.ts";
import { json } from "./fixtures-testing.ts";

const group = "mygroup.example.com";
const crdName = `mycrds.${group}`;
const crdPath = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crdName}`;
const base = `/apis/${group}/v1beta1/namespaces/default/mycrds`;
const sentinelName = "__ratcheting_sentinel_field__";

type Schema = Record<string, unknown>;

/** runTests' CRD: `content` and `num` maps and a `status` object, with the status subresource. */
export function myCRD(): Record<string, unknown> {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: crdName },
    spec: {
      group,
      names: { plural: "mycrds", kind: "MyCoolCRD", listKind: "MyCoolCRDList" },
      scope: "Namespaced",
      versions: [
        {
          name: "v1beta1",
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: "object",
              properties: {
                content: { type: "object", additionalProperties: { type: "string" } },
                num: { type: "object", additionalProperties: { type: "integer" } },
                status: { type: "object" },
              },
            },
          },
          subresources: { status: {} },
        },
      ],
    },
  };
}

/** One step of a case: a schema replacement, a schema merge patch, or an apply that must pass or fail. */
export type RatchetingStep =
  | { schema: Schema }
  | { patchSchema: Schema; description: string }
  | { apply: Record<string, unknown>; description: string; expectError?: boolean; warnings?: string[] };

/**
 * The failed responses of applyPatchOperation: the object's apply, then (unless skipped) its
 * status apply; `warnings` receives the object's apply's Warning header.
 */
async function applyPatch(
  s: TestServer,
  name: string,
  patch: Record<string, unknown>,
  skipStatus: boolean,
  warnings: string[] = [],
): Promise<string[]> {
  const errs: string[] = [];
  const send = async (path: string, body: Record<string, unknown>): Promise<void> => {
    const obj = { ...body, apiVersion: `${group}/v1beta1`, kind: "MyCoolCRD", metadata: { name, namespace: "default" } };
    const r = await s.send("PATCH", `${path}?fieldManager=manager`, obj, "application/apply-patch+yaml");
    if (r.status >= 300) errs.push(`${r.status} ${r.text}`);
    if (path === `${base}/${name}`) warnings.push(r.headers.get("warning") ?? "");
  };
  await send(`${base}/${name}`, patch);
  if (!skipStatus) await send(`${base}/${name}/status`, { status: patch });
  return errs;
}

/** updateMyCRDV1Beta1Schema: replaces the schema (copied under `status` unless skipped) and waits until it is served. */
async function updateSchema(s: TestServer, schema: Schema, skipStatus: boolean): Promise<void> {
  const uuid = randomUUID();
  const sch = structuredClone(schema);
  sch["properties"] = { ...(sch["properties"] as Schema | undefined), [sentinelName]: { type: "string", enum: [uuid] } };
  if (!skipStatus) (sch["properties"] as Schema)["status"] = structuredClone(sch);
  await eventually(async () => {
    const crd = (await s.request(crdPath)).json() as { spec: { versions: Record<string, unknown>[] } };
    for (const v of crd.spec.versions)
      if (v["name"] === "v1beta1") {
        v["schema"] = { openAPIV3Schema: sch };
        v["subresources"] = { status: {} };
      }
    const r = await s.send("PUT", `${crdPath}?fieldManager=manager`, crd);
    expect(r.status, r.text).toBe(200);
    return true;
  });
  let counter = 0;
  await eventually(async () => {
    counter += 1;
    const errs = await applyPatch(s, "sentinel-resource", { [sentinelName]: `invalid-${counter}` }, skipStatus);
    expect(errs.length, "expected error when creating sentinel resource").toBeGreaterThan(0);
    expect(errs.join("\n")).toContain(uuid);
    return true;
  });
}

/** patchMyCRDV1Beta1Schema: merges `patch` into the schema and into its `status` copy. */
async function patchSchema(s: TestServer, patch: Schema, skipStatus: boolean): Promise<void> {
  const crd = (await s.request(crdPath)).json() as { spec: { versions: { name: string; schema: { openAPIV3Schema: JSONValue } }[] } };
  const v = crd.spec.versions.find((x) => x.name === "v1beta1");
  if (v === undefined) throw new Error(`could not find version v1beta1 in CRD ${crdName}`);
  const merged = applyMergePatch(v.schema.openAPIV3Schema, patch);
  const mergedStatus = applyMergePatch(merged, { properties: { status: patch } });
  await updateSchema(s, mergedStatus as Schema, skipStatus);
}

/** Runs a case's steps in order, then deletes its objects (runTests). */
export async function runRatchetingCase(s: TestServer, steps: readonly RatchetingStep[], skipStatus = false): Promise<void> {
  for (const step of steps) {
    if ("schema" in step) await updateSchema(s, step.schema, skipStatus);
    else if ("patchSchema" in step) await patchSchema(s, step.patchSchema, skipStatus);
    else {
      const warnings: string[] = [];
      const errs = await applyPatch(s, "mycrdinstance", step.apply, skipStatus, warnings);
      // Not upstream's check: a ratcheted CEL failure is returned as a warning (validateExpressions).
      for (const want of step.warnings ?? []) expect(warnings.join("\n"), step.description).toContain(want);
      // expectError: the apply and the status apply both fail.
      if (step.expectError === true) expect(errs.length, `${step.description}: expected error`).toBe(skipStatus ? 1 : 2);
      else expect(errs, step.description).toEqual([]);
    }
  }
  const r = await s.request(base, { method: "DELETE", headers: json });
  expect(r.status, r.text).toBe(200);
}
