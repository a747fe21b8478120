/**
 * The simple JSONPath of CRD printer columns and selectable fields (k8s.io/client-go/util/jsonpath
 * as the tableconvertor uses it): `.a.b`, `.a[0]`, `.a['b.c']` and one-level filters
 * `.a[?(@.type=="Ready")]`. The first match is the value (upstream takes results[0][0]).
 */

type Step = { key: string } | { index: number } | { filter: { path: string[]; value: string } };

const token = /^(?:\.([A-Za-z0-9_$-]+)|\[(\d+)\]|\['([^']*)'\]|\[\?\(@\.([A-Za-z0-9_.$-]+)\s*==\s*["']([^"']*)["']\)\])/;

/** Parses a path; undefined when it is not one of the simple forms. */
export function parseSimpleJSONPath(path: string): Step[] | undefined {
  const p = path.startsWith("{") && path.endsWith("}") ? path.slice(1, -1) : path;
  const steps: Step[] = [];
  let rest = p;
  while (rest.length > 0) {
    const m = token.exec(rest);
    if (!m) return undefined;
    if (m[1] !== undefined) steps.push({ key: m[1] });
    else if (m[2] !== undefined) steps.push({ index: Number(m[2]) });
    else if (m[3] !== undefined) steps.push({ key: m[3] });
    else steps.push({ filter: { path: m[4]!.split("."), value: m[5]! } });
    rest = rest.slice(m[0].length);
  }
  return steps;
}

function walk(value: unknown, path: readonly string[]): unknown {
  let v = value;
  for (const k of path) {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** The first value `steps` select in `obj`, or undefined. */
export function findFirst(obj: unknown, steps: readonly Step[]): unknown {
  let v: unknown = obj;
  for (const s of steps) {
    if (v === undefined || v === null) return undefined;
    if ("key" in s) {
      if (typeof v !== "object" || Array.isArray(v)) return undefined;
      v = (v as Record<string, unknown>)[s.key];
    } else if ("index" in s) {
      if (!Array.isArray(v)) return undefined;
      v = v[s.index];
    } else {
      if (!Array.isArray(v)) return undefined;
      const { path, value } = s.filter;
      v = v.find((e) => {
        const got = walk(e, path);
        return (
          (typeof got === "string" || typeof got === "number" || typeof got === "bigint" || typeof got === "boolean") &&
          String(got) === value
        );
      });
    }
  }
  return v;
}
