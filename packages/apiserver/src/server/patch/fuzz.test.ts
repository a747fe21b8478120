/** Garbage, truncated and hostile patch bodies: only StatusErrors come out, and the input is never modified. */
import { describe, expect, it } from "vitest";
import { StatusError } from "@servicenet/api";
import { applyPatch, patchContentTypes } from "./apply-patch.ts";
import type { JSONObject } from "./json-value.ts";

const live: JSONObject = {
  apiVersion: "v1",
  kind: "Service",
  metadata: { name: "web", namespace: "default", labels: { app: "web" } },
  spec: { ports: [{ port: 80, protocol: "TCP" }], clusterIPs: ["10.96.0.1"], selector: { app: "web" } },
};
const valid: Record<string, string> = {
  "application/json-patch+json": '[{"op":"replace","path":"/spec/selector/app","value":"db"}]',
  "application/merge-patch+json": '{"spec":{"selector":{"app":"db"}}}',
  "application/strategic-merge-patch+json": '{"spec":{"ports":[{"port":81}],"$setElementOrder/ports":[{"port":81},{"port":80}]}}',
  "application/apply-patch+yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n  - port: 81\n",
};

// A small deterministic generator, so that a failure is reproducible.
function rng(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

function mutate(body: string, r: () => number): string {
  const alphabet = '{}[]":,-$~/0123456789abcnull \n\t\\';
  const chars = [...body];
  const edits = 1 + Math.floor(r() * 4);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(r() * (chars.length + 1));
    const op = r();
    if (op < 0.33) chars.splice(at, 1);
    else if (op < 0.66) chars.splice(at, 0, alphabet[Math.floor(r() * alphabet.length)] as string);
    else chars.length = at; // truncate
  }
  return chars.join("");
}

const hostile = [
  "",
  "null",
  "[]",
  "{}",
  "1",
  '"x"',
  "[".repeat(20000) + "]".repeat(20000),
  '{"a":'.repeat(20000) + "1" + "}".repeat(20000),
  '{"__proto__":{"polluted":true},"spec":{"__proto__":{"x":1}}}',
  "- it's\n- " + "[".repeat(5000) + "]".repeat(5000),
  '{"s":"' + "]".repeat(500) + '","t":' + "[".repeat(5000) + "]".repeat(5000) + "}",
  '[{"op":"add","path":"/__proto__/polluted","value":true}]',
  '[{"op":"add","path":5,"value":1}]',
  '[{"op":"move","from":"/spec","path":"/spec/ports"}]',
  '{"spec":{"ports":[{"$patch":"delete"}]}}',
  '{"spec":{"$retainKeys":"x"}}',
  '{"metadata":{"managedFields":[{"manager":"x"}]}}',
];

describe("patch fuzz", () => {
  const snapshot = JSON.stringify(live);
  const cases: [string, string][] = [];
  const r = rng(42);
  for (const type of patchContentTypes) {
    for (const body of hostile) cases.push([type, body]);
    for (let i = 0; i < 150; i++) cases.push([type, mutate(valid[type] as string, r)]);
  }

  it(`survives ${cases.length} hostile and mutated bodies`, () => {
    let rejected = 0;
    for (const [type, body] of cases) {
      try {
        applyPatch(type, live, body, { fieldManager: "fuzz", schemaKind: "Service", now: new Date(0) });
      } catch (e) {
        if (!(e instanceof StatusError)) throw new Error(`${type} ${JSON.stringify(body.slice(0, 80))}: ${String(e)}`);
        expect([400, 409, 413, 415, 422, 500]).toContain(e.code);
        rejected++;
      }
      expect(JSON.stringify(live)).toBe(snapshot);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(rejected).toBeGreaterThan(0);
  });
});
