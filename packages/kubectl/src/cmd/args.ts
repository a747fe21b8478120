/**
 * Command-line parsing for the subset of kubectl flags the CLI supports.
 * Flags may come anywhere (kubectl/cobra allows interspersed flags), in the
 * forms `-n ns`, `-nns`, `--namespace ns` and `--namespace=ns`.
 */
import { CLIError } from "./errors.ts";

export interface Args {
  positional: string[];
  namespace?: string;
  allNamespaces: boolean;
  output?: string;
  selector?: string;
  kubeconfig?: string;
  showEvents: boolean;
  noHeaders: boolean;
  showLabels: boolean;
  help: boolean;
  /** get -w / --watch, and --watch-only (no initial listing). */
  watch: boolean;
  watchOnly: boolean;
  /** -f/--filename, repeatable; "-" is stdin. */
  filenames: string[];
  /** apply: --server-side is accepted (apply is always server-side here). */
  serverSide: boolean;
  fieldManager?: string;
  forceConflicts: boolean;
  /** delete: --ignore-not-found, and --wait (default true: wait for finalizers). */
  ignoreNotFound: boolean;
  wait: boolean;
  /** delete: --cascade (cobra NoOptDefVal "background": a bare --cascade takes no next argument). */
  cascade?: string;
  /** servicenet trace: the node whose rules to evaluate and kube-proxy's flags for it. */
  node?: string;
  proxyMode?: string;
  clusterCIDR?: string;
  nodeIP?: string;
  protocol?: string;
  /** servicenet trace --rules: kube-proxy output files to trace instead of computing the rules. */
  rules: string[];
  /** servicenet serve: where the dataplane page listens (kubectl proxy's --address and --port). */
  address?: string;
  port?: string;
}

type ValueFlag =
  | "namespace"
  | "output"
  | "selector"
  | "kubeconfig"
  | "fieldManager"
  | "node"
  | "proxyMode"
  | "clusterCIDR"
  | "nodeIP"
  | "protocol"
  | "address"
  | "port";
type BoolFlag =
  | "allNamespaces"
  | "noHeaders"
  | "showLabels"
  | "help"
  | "watch"
  | "watchOnly"
  | "serverSide"
  | "forceConflicts"
  | "ignoreNotFound"
  | "wait";

const valueFlags: Record<string, ValueFlag> = {
  "-n": "namespace",
  "--namespace": "namespace",
  "-o": "output",
  "--output": "output",
  "-l": "selector",
  "--selector": "selector",
  "--kubeconfig": "kubeconfig",
  "--field-manager": "fieldManager",
  "--node": "node",
  "--proxy-mode": "proxyMode",
  "--cluster-cidr": "clusterCIDR",
  "--node-ip": "nodeIP",
  "--protocol": "protocol",
  "--address": "address",
  "-p": "port",
  "--port": "port",
};
const boolFlags: Record<string, BoolFlag> = {
  "-A": "allNamespaces",
  "--all-namespaces": "allNamespaces",
  "--no-headers": "noHeaders",
  "--show-labels": "showLabels",
  "-h": "help",
  "--help": "help",
  "-w": "watch",
  "--watch": "watch",
  "--watch-only": "watchOnly",
  "--server-side": "serverSide",
  "--force-conflicts": "forceConflicts",
  "--ignore-not-found": "ignoreNotFound",
  "--wait": "wait",
};

/** Parses argv (without node and script). Unknown flags fail like cobra does. */
export function parseArgs(argv: readonly string[]): Args {
  const out: Args = {
    positional: [],
    allNamespaces: false,
    showEvents: true,
    noHeaders: false,
    showLabels: false,
    help: false,
    watch: false,
    watchOnly: false,
    filenames: [],
    rules: [],
    serverSide: false,
    forceConflicts: false,
    ignoreNotFound: false,
    wait: true,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? "";
    if (a === "--") {
      out.positional.push(...argv.slice(i + 1));
      break;
    }
    if (!a.startsWith("-") || a === "-") {
      out.positional.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    const key = a.startsWith("--") && eq > 0 ? a.slice(0, eq) : a.startsWith("--") ? a : a.slice(0, 2);
    const inline = a.startsWith("--") ? (eq > 0 ? a.slice(eq + 1) : undefined) : a.length > 2 ? a.slice(2).replace(/^=/, "") : undefined;
    if (key === "--validate") {
      // Accepted for kubectl compatibility; validation is the server's (fieldValidation=Strict).
      continue;
    }
    if (key === "--cascade") {
      out.cascade = inline ?? "background";
      continue;
    }
    if (key === "--show-events") {
      out.showEvents = inline === undefined || inline === "true";
      continue;
    }
    if (key === "-f" || key === "--filename") {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new CLIError(`error: flag needs an argument: ${a}`);
      out.filenames.push(value);
      continue;
    }
    if (key === "--rules") {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new CLIError(`error: flag needs an argument: ${a}`);
      out.rules.push(value);
      continue;
    }
    const vf = valueFlags[key];
    if (vf !== undefined) {
      let value = inline;
      if (value === undefined) {
        value = argv[++i];
        if (value === undefined) throw new CLIError(`error: flag needs an argument: ${a}`);
      }
      out[vf] = value;
      continue;
    }
    const bf = boolFlags[key];
    if (bf !== undefined && (inline === undefined || a.startsWith("--"))) {
      out[bf] = inline === undefined || inline === "true";
      continue;
    }
    const shown = a.startsWith("--") ? key.slice(2) : key.slice(1);
    throw new CLIError(`error: unknown ${a.startsWith("--") ? "flag" : "shorthand flag"}: '${shown}' in ${a}`);
  }
  return out;
}
