/** Reading zod schemas by their definitions (`_zod.def`), for the walks that follow a schema's shape. */
import { unwrapSchema } from "@servicenet/api";

/** A zod schema, read through its `_zod.def`. */
export type Schema = unknown;

/** The parts of a zod definition the walks read. */
export interface Def {
  type: string;
  shape?: Record<string, Schema>;
  element?: Schema;
  valueType?: Schema;
  options?: Schema[];
  checks?: unknown[];
}

/** The definition of `s`. */
export const defOf = (s: Schema): Def => (s as { _zod: { def: Def } })._zod.def;
/** `s` unwrapped as @servicenet/api's decodeObject unwraps it (`unwrapSchema`). */
export const unwrap = (s: Schema): Schema => unwrapSchema(s as Parameters<typeof unwrapSchema>[0]);
/** A JSON object (not an array, not null). */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
