/**
 * The shape of upstream's library tests (library/ip_test.go testIP and its siblings): compile one
 * expression in an environment with the Kubernetes libraries and report the value, the runtime
 * error or the compile error.
 */
import { CELEnvironment } from "./environment.ts";
import { fromCEL } from "./values.ts";

export type Outcome = { value: unknown } | { runtimeErr: string } | { compileErr: string };

const env = new CELEnvironment();

/** Runs `expr` with no variables; values are given in their JSON view (ints as numbers, IPs as text). */
export function run(expr: string): Outcome {
  const r = env.compile(expr);
  if (r.error) return { compileErr: r.error.detail };
  try {
    return { value: fromCEL(r.program.evaluate({}).value) };
  } catch (e) {
    return { runtimeErr: (e as Error).message };
  }
}
