/** Command-line options of servicenet-scheduler: kube-scheduler's names (`--kubeconfig`, `-v`). */
import { commonFlag, scanFlags, UsageError } from "@servicenet/component-base/cli";

export interface Options {
  kubeconfig: string;
  verbosity: number;
  help: boolean;
}

export { UsageError };

export const usage = `Usage: servicenet-scheduler --kubeconfig PATH [-v N]
Binds Pods with spec.schedulerName default-scheduler and no Node through pods/binding (the default
filters NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodeResourcesFit; scores
TaintToleration, NodeAffinity, NodeResourcesFit LeastAllocated, PodTopologySpread system defaults).
  --kubeconfig PATH   kubeconfig of the apiserver to talk to (required)
  -v, --v N           log verbosity, klog's levels (default 0)`;

/** Parses argv (without node and script); throws UsageError with a clear message. */
export function parseOptions(argv: readonly string[]): Options {
  const o: Options = { kubeconfig: "", verbosity: 0, help: false };
  scanFlags(argv, (f) => {
    if (commonFlag(o, f)) return;
    const { name: flag, value } = f;
    switch (flag) {
      case "--kubeconfig":
        o.kubeconfig = value();
        break;
      default:
        throw new UsageError(`unknown flag: ${flag}`);
    }
  });
  if (!o.help && o.kubeconfig === "") throw new UsageError("--kubeconfig is required");
  return o;
}
