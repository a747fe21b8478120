/**
 * CPU time from /proc, for the benches that report a server's CPU per create (a figure that moves
 * less than throughput on a shared machine).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** Clock ticks per second of /proc's times (`getconf CLK_TCK`, 100 on Linux). */
export const ticksPerSecond = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout?.trim()) || 100;

/** user + system clock ticks in a `/proc/<pid>/stat` or `/proc/<pid>/task/<tid>/stat` file; throws without it. */
export function statTicks(statPath: string): number {
  const fields = readFileSync(statPath, "utf8").split(") ")[1]!.split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

/** user + system clock ticks of `pid` and its child processes (all threads), or NaN without /proc. */
export function processTreeTicks(pid: number): number {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
    return statTicks(`/proc/${pid}/stat`) + children.reduce((t, c) => t + processTreeTicks(c), 0);
  } catch {
    return NaN;
  }
}

/** CPU time (ms) of this process's main thread alone (worker threads excluded), or NaN without /proc. */
export function mainThreadCpuMs(): number {
  try {
    return (statTicks(`/proc/self/task/${process.pid}/stat`) * 1000) / ticksPerSecond;
  } catch {
    return NaN;
  }
}
