/**
 * Command-line options of servicenet-kubelet: kubelet's own flags where it has them
 * (`--kubeconfig`, `--hostname-override`, `--node-ip`, `-v`), and the simulation's (how many
 * Nodes, their zones and size), which a real kubelet does not need.
 */
import { clientConnectionFlag, commonFlag, int32Flag, scanFlags, UsageError } from "@servicenet/component-base/cli";
import { isDualStackIPStrings, parseIP } from "@servicenet/api/net";
import { defaultKubeAPIBurst, defaultKubeAPIQPS } from "./client-connection.ts";
import { defaultSimulatedNodeOptions, type SimulatedNodeOptions } from "../nodestatus/setters.ts";

export interface Options {
  kubeconfig: string;
  /** How many Nodes this process runs. */
  nodes: number;
  node: SimulatedNodeOptions;
  /** --hostname-override: the name of the only Node (with --nodes 1). */
  hostnameOverride: string;
  /** Pods synced at once, over all Nodes. */
  workers: number;
  /** --kube-api-qps and --kube-api-burst of each Node's client (KubeletConfiguration kubeAPIQPS/kubeAPIBurst, 50 and 100). */
  kubeAPIQPS: number;
  kubeAPIBurst: number;
  /** --address and --read-only-port: the read-only server of /healthz and /metrics (0: off, KubeletConfiguration's default). */
  address: string;
  readOnlyPort: number;
  verbosity: number;
  help: boolean;
}

export { UsageError };

export const usage = `Usage: servicenet-kubelet --kubeconfig PATH [--nodes N] [flags]
A simulated kubelet: registers N Nodes and gives the Pods bound to them IPs and a lifecycle (no containers run).
  --kubeconfig PATH           kubeconfig of the apiserver to talk to (required)
  --nodes N                   how many Nodes this process runs (default 1)
  --node-name-prefix NAME     Nodes are named NAME-0, NAME-1, ... (default node)
  --hostname-override NAME    the Node's name, with --nodes 1
  --node-ip IP[,IP]           the first Node's InternalIP, or a dual-stack pair (primary first); Node i has these + i
                              (default 172.18.0.2,fc00:f853:ccd:e793::2)
  --zones LIST                topology.kubernetes.io/zone values, spread round-robin (default zone-a,zone-b,zone-c)
  --region NAME               topology.kubernetes.io/region (default region-1)
  --capacity LIST             each Node's capacity = allocatable (default cpu=32,memory=131072Mi,pods=110,ephemeral-storage=100Gi)
  --pod-workers N             Pods synced at once, over all Nodes (default 20; a sync never waits for the apiserver)
  --kube-api-qps QPS          QPS to use while talking with kubernetes apiserver, per Node (default 50)
  --kube-api-burst N          burst to use while talking with kubernetes apiserver, per Node (default 100)
  --address IP                the IP address for the Kubelet to serve on (default 0.0.0.0)
  --read-only-port PORT       the read-only port for the Kubelet to serve on with no authentication/authorization:
                              /healthz and /metrics (set to 0 to disable; default 0)
  -v, --v N                   log verbosity, klog's levels (default 0)
Pod annotations: kubelet.servicenet.io/fail-readiness, kubelet.servicenet.io/crash-after-seconds, kubelet.servicenet.io/exit-after-seconds, kubelet.servicenet.io/exit-code, kubelet.servicenet.io/stop-seconds (see the README).`;

/** component-helpers/node/util/ips.go `parseNodeIP` (the errors of --node-ip, as kubelet prints them). */
export function parseNodeIPFlag(value: string): string[] {
  const ips: string[] = [];
  for (const s of value.split(",").map((x) => x.trim())) {
    if (parseIP(s) === null) throw new UsageError(`bad --node-ip ${JSON.stringify(value)}: could not parse ${JSON.stringify(s)}`);
    ips.push(s);
  }
  if (ips.length > 2 || (ips.length === 2 && !isDualStackIPStrings(ips)))
    throw new UsageError(`bad --node-ip ${JSON.stringify(value)}: must contain either a single IP or a dual-stack pair of IPs`);
  if (ips.length === 2 && ips.some((ip) => /^(0\.0\.0\.0|::)$/.test(ip)))
    throw new UsageError(`bad --node-ip ${JSON.stringify(value)}: dual-stack node IP cannot include '0.0.0.0' or '::'`);
  return ips;
}

function positive(flag: string, v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a positive integer, got ${JSON.stringify(v)}`);
  return n;
}

// component-base/cli/flag IPVar.Set under pflag's wrapping.
function address(v: string): string {
  if (parseIP(v) === null)
    throw new UsageError(`invalid argument ${JSON.stringify(v)} for "--address" flag: ${JSON.stringify(v)} is not a valid IP address`);
  return v;
}

function capacity(v: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of v.split(",")) {
    const [k, q] = kv.split("=");
    if (!k || !q) throw new UsageError(`--capacity: want name=quantity[,name=quantity], got ${JSON.stringify(v)}`);
    out[k.trim()] = q.trim();
  }
  return out;
}

/** Parses argv (without node and script); throws UsageError with a clear message. */
export function parseOptions(argv: readonly string[]): Options {
  const o: Options = {
    kubeconfig: "",
    nodes: 1,
    node: { ...defaultSimulatedNodeOptions },
    hostnameOverride: "",
    workers: 20,
    kubeAPIQPS: defaultKubeAPIQPS,
    kubeAPIBurst: defaultKubeAPIBurst,
    address: "0.0.0.0",
    readOnlyPort: 0,
    verbosity: 0,
    help: false,
  };
  scanFlags(argv, (f) => {
    if (commonFlag(o, f) || clientConnectionFlag(o, f)) return;
    const { name: flag, value } = f;
    switch (flag) {
      case "--kubeconfig":
        o.kubeconfig = value();
        break;
      case "--nodes":
        o.nodes = positive(flag, value());
        break;
      case "--node-name-prefix":
        o.node.prefix = value();
        break;
      case "--hostname-override":
        o.hostnameOverride = value();
        break;
      case "--node-ip":
        o.node.nodeIPs = parseNodeIPFlag(value());
        break;
      case "--zones":
        o.node.zones = value()
          .split(",")
          .map((z) => z.trim())
          .filter((z) => z !== "");
        break;
      case "--region":
        o.node.region = value();
        break;
      case "--capacity":
        o.node.capacity = { ...o.node.capacity, ...capacity(value()) };
        break;
      case "--pod-workers":
        o.workers = positive(flag, value());
        break;
      case "--address":
        o.address = address(value());
        break;
      case "--read-only-port":
        o.readOnlyPort = int32Flag(flag, value());
        break;
      default:
        throw new UsageError(`unknown flag: ${flag}`);
    }
  });
  if (o.help) return o;
  if (o.kubeconfig === "") throw new UsageError("--kubeconfig is required");
  if (o.hostnameOverride !== "" && o.nodes !== 1) throw new UsageError("--hostname-override names one Node: use it with --nodes 1");
  // pkg/kubelet/apis/config/validation/validation.go ValidateKubeletConfiguration.
  if (o.kubeAPIBurst < 0)
    throw new UsageError(`invalid configuration: kubeAPIBurst (--kube-api-burst) ${o.kubeAPIBurst} must not be a negative number`);
  if (o.readOnlyPort < 0 || o.readOnlyPort > 65535)
    throw new UsageError(`invalid configuration: readOnlyPort (--read-only-port) ${o.readOnlyPort} must be between 0 and 65535, inclusive`);
  if (o.kubeAPIQPS < 0)
    throw new UsageError(`invalid configuration: kubeAPIQPS (--kube-api-qps) ${o.kubeAPIQPS} must not be a negative number`);
  return o;
}
