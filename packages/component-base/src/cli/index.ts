export { UsageError, scanFlags, int32Flag, float32Flag, clientConnectionFlag } from "./flags.ts";
export type { ClientConnectionFlags, Flag } from "./flags.ts";
export { commonFlag, main, runCommand } from "./run.ts";
export type { Command, CommonOptions } from "./run.ts";
