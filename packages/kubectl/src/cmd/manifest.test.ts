/** Manifest reading as kubectl's resource builder does it: documents, Lists, JSON, errors. */
import { describe, expect, it } from "vitest";
import { parseManifest } from "./manifest.ts";

const names = (text: string) =>
  parseManifest(text, "f.yaml").map((m) => `${String(m.object.kind)}/${m.object.metadata?.name ?? ""}@${m.source}`);

describe("parseManifest", () => {
  it.each([
    ["one YAML document", "apiVersion: v1\nkind: Service\nmetadata: {name: a}\n", ["Service/a@f.yaml"]],
    [
      "documents with empty ones between",
      "---\napiVersion: v1\nkind: Service\nmetadata: {name: a}\n---\n---\napiVersion: v1\nkind: Endpoints\nmetadata: {name: b}\n",
      ["Service/a@f.yaml", "Endpoints/b@f.yaml"],
    ],
    ["JSON", '{"apiVersion":"v1","kind":"Service","metadata":{"name":"j"}}', ["Service/j@f.yaml"]],
    [
      "a v1 List, nested",
      "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Service, metadata: {name: a}}\n- {apiVersion: v1, kind: List, items: [{apiVersion: v1, kind: Service, metadata: {name: b}}]}\n",
      ["Service/a@f.yaml", "Service/b@f.yaml"],
    ],
    [
      "a typed list (ServiceList)",
      "apiVersion: v1\nkind: ServiceList\nitems: [{apiVersion: v1, kind: Service, metadata: {name: c}}]\n",
      ["Service/c@f.yaml"],
    ],
    ["nothing", "\n# only a comment\n", []],
  ])("%s", (_name, text, want) => {
    expect(names(text)).toEqual(want);
  });

  it("reads YAML 1.1 scalars as sigs.k8s.io/yaml does", () => {
    const [m] = parseManifest("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {x: yes}\n", "f");
    expect((m?.object.data as Record<string, unknown>).x).toBe(true);
  });

  it.each([
    ["bad YAML", "a: [\n", /^error: error parsing f\.yaml: error converting YAML to JSON: yaml: /],
    ["no kind", "apiVersion: v1\nmetadata: {name: a}\n", /^error: error validating "f\.yaml": error validating data: kind not set$/],
    [
      "no apiVersion",
      "kind: Service\nmetadata: {name: a}\n",
      /^error: error validating "f\.yaml": error validating data: apiVersion not set$/,
    ],
    ["a scalar document", "hello\n", /cannot unmarshal string/],
  ])("%s fails", (_name, text, want) => {
    expect(() => parseManifest(text, "f.yaml")).toThrow(want);
  });
});
