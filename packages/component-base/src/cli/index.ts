export { UsageError, scanFlags } from "./flags.ts";
export type { Flag } from "./flags.ts";
export { commonFlag, main, runCommand } from "./run.ts";
export type { Command, CommonOptions } from "./run.ts";
