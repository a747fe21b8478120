/**
 * The object parse of the compiled parser ($ZodObject/$ZodObjectJIT in zod/v4/core/schemas.js):
 * shape keys in shape order, a key whose result is undefined set only when the input has it
 * (`key in input`), then the catchall's keys. Like zod's own JIT, the shape walk is generated as
 * straight-line code with the keys as literals (property loads and `in` checks then have
 * monomorphic caches); where code cannot be generated, a loop does the same.
 */

/** What a compiled parser returns when zod would report an issue (or throw). */
export const FAIL: unique symbol = Symbol("compiled parse failed");

/** Returns the value zod's parse produces, or FAIL. */
export type CompiledParse = (value: unknown) => unknown;

export interface Field {
  key: string;
  parse: CompiledParse;
  /** Set for a plain `.optional()`: its inner parse, run only for a value that is not undefined. */
  inner?: CompiledParse | undefined;
  /** Set when `inner ?? parse` is a bare z.string()/z.boolean(): checked inline. */
  leaf?: "string" | "boolean" | undefined;
}

/** The catchall step: adds the input's other keys to `out`; FAIL or `out`. */
export type Rest = (input: Record<string, unknown>, out: Record<string, unknown>) => unknown;

function fieldCode(f: Field, i: number): string {
  const k = JSON.stringify(f.key);
  const absent = `else if (${k} in input) out[${k}] = undefined;`;
  const set = (call: string) => `r = ${call}; if (r === FAIL) return FAIL; if (r !== undefined) out[${k}] = r; ${absent}`;
  if (f.inner !== undefined) {
    const present = f.leaf !== undefined ? `if (typeof v !== "${f.leaf}") return FAIL; out[${k}] = v;` : set(`q[${i}](v)`);
    return `v = input[${k}]; if (v !== undefined) { ${present} } ${absent}`;
  }
  if (f.leaf !== undefined) return `v = input[${k}]; if (typeof v !== "${f.leaf}") return FAIL; out[${k}] = v;`;
  return set(`p[${i}](input[${k}])`);
}

function generated(fields: Field[], rest: Rest | undefined): CompiledParse | undefined {
  const body = [
    `return function (input) {`,
    `if (typeof input !== "object" || input === null || Array.isArray(input)) return FAIL;`,
    `const out = {}; let v, r;`,
    ...fields.map(fieldCode),
    rest === undefined ? `return out;` : `return rest(input, out);`,
    `};`,
  ].join("\n");
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the code is built from the schema's keys (JSON-quoted), as zod's own $ZodObjectJIT does
    const make = new Function("FAIL", "p", "q", "rest", body) as (...args: unknown[]) => CompiledParse;
    return make(
      FAIL,
      fields.map((f) => f.parse),
      fields.map((f) => f.inner),
      rest,
    );
  } catch {
    // No code generation here (--disallow-code-generation-from-strings, a CSP).
    return undefined;
  }
}

function looped(fields: Field[], rest: Rest | undefined): CompiledParse {
  const n = fields.length;
  return (input) => {
    if (typeof input !== "object" || input === null || Array.isArray(input)) return FAIL;
    const obj = input as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) {
      const f = fields[i] as Field;
      const v = obj[f.key];
      const r = v === undefined && f.inner !== undefined ? undefined : f.parse(v);
      if (r === FAIL) return FAIL;
      if (r !== undefined) out[f.key] = r;
      else if (f.key in obj) out[f.key] = undefined;
    }
    return rest === undefined ? out : rest(obj, out);
  };
}

/** The parse of an object with these fields (in shape order) and catchall step. */
export function objectParse(fields: Field[], rest: Rest | undefined, codegen = true): CompiledParse {
  return (codegen ? generated(fields, rest) : undefined) ?? looped(fields, rest);
}
