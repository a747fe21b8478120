/** meta/v1: the object envelope every API kind shares, decoding helpers and name/label validation. */
export * from "./type-meta.ts";
export * from "./object-meta.ts";
export * from "./condition.ts";
export * from "./status.ts";
export * from "./table.ts";
export * from "./watch-event.ts";
export * from "./partial-object-metadata.ts";
export * from "./delete-options.ts";
export * from "./label-selector.ts";
export * from "./label-selector-helpers.ts";
export * from "./decode.ts";
export { compileParser, safeParseCompiled, FAIL as compiledParseFailed, type CompiledParse } from "./compile-parser.ts";
export * from "./validation/index.ts";
