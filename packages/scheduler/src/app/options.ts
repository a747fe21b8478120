/**
 * Command-line options of servicenet-scheduler: kube-scheduler's names (`--kubeconfig`,
 * `--kube-api-qps`, `--kube-api-burst`, `-v`; cmd/kube-scheduler/app/options/deprecated.go, which
 * set the configuration's clientConnection when no --config is given).
 */
import { fieldErrorString, field } from "@servicenet/api/errors";
import { clientConnectionFlag, commonFlag, scanFlags, UsageError } from "@servicenet/component-base/cli";

export interface Options {
  kubeconfig: string;
  /** clientConnection.qps and .burst (upstream defaults 50 and 100). */
  kubeAPIQPS: number;
  kubeAPIBurst: number;
  verbosity: number;
  help: boolean;
}

export { UsageError };

export const usage = `Usage: servicenet-scheduler --kubeconfig PATH [-v N]
Binds Pods with spec.schedulerName default-scheduler and no Node through pods/binding (the default
filters NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodeResourcesFit; scores
TaintToleration, NodeAffinity, NodeResourcesFit LeastAllocated, PodTopologySpread system defaults).
  --kubeconfig PATH   kubeconfig of the apiserver to talk to (required)
  --kube-api-qps QPS  QPS to use while talking with kubernetes apiserver (default 50)
  --kube-api-burst N  burst to use while talking with kubernetes apiserver (default 100)
  -v, --v N           log verbosity, klog's levels (default 0)`;

/** Parses argv (without node and script); throws UsageError with a clear message. */
export function parseOptions(argv: readonly string[]): Options {
  const o: Options = { kubeconfig: "", kubeAPIQPS: 50, kubeAPIBurst: 100, verbosity: 0, help: false };
  scanFlags(argv, (f) => {
    if (commonFlag(o, f) || clientConnectionFlag(o, f)) return;
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
  // ValidateKubeSchedulerConfiguration -> component-base/config/validation ValidateClientConnectionConfiguration.
  if (o.kubeAPIBurst < 0)
    throw new UsageError(fieldErrorString(field.invalid("clientConnection.burst", o.kubeAPIBurst, "must be non-negative")));
  return o;
}
