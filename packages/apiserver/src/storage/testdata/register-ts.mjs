// `node --import ./src/storage/testdata/register-ts.mjs file.ts` runs a TypeScript entry point on Node 20.
import { register } from "node:module";

register("./ts-hooks.mjs", import.meta.url);
