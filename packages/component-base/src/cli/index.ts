export { UsageError, scanFlags, int32Flag, float32Flag } from "./flags.ts";
export type { Flag } from "./flags.ts";
export { commonFlag, main, runCommand } from "./run.ts";
export type { Command, CommonOptions } from "./run.ts";
