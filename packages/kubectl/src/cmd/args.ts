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
}

type ValueFlag = "namespace" | "output" | "selector" | "kubeconfig";
type BoolFlag = "allNamespaces" | "noHeaders" | "showLabels" | "help";

const valueFlags: Record<string, ValueFlag> = {
  "-n": "namespace",
  "--namespace": "namespace",
  "-o": "output",
  "--output": "output",
  "-l": "selector",
  "--selector": "selector",
  "--kubeconfig": "kubeconfig",
};
const boolFlags: Record<string, BoolFlag> = {
  "-A": "allNamespaces",
  "--all-namespaces": "allNamespaces",
  "--no-headers": "noHeaders",
  "--show-labels": "showLabels",
  "-h": "help",
  "--help": "help",
};

/** Parses argv (without node and script). Unknown flags fail like cobra does. */
export function parseArgs(argv: readonly string[]): Args {
  const out: Args = { positional: [], allNamespaces: false, showEvents: true, noHeaders: false, showLabels: false, help: false };
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
    if (key === "--show-events") {
      out.showEvents = inline === undefined || inline === "true";
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
