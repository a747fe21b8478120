/**
 * The DefaultTolerationSeconds admission plugin
 * (plugin/pkg/admission/defaulttolerationseconds/admission.go): a Pod that does not tolerate the
 * node.kubernetes.io/not-ready or node.kubernetes.io/unreachable NoExecute taints gets a
 * toleration of each for `--default-not-ready-toleration-seconds` /
 * `--default-unreachable-toleration-seconds` (300 s by default), so it is evicted that long after
 * its node goes away.
 */
import { StatusError } from "@servicenet/api";
import type { Attributes, Operation } from "../../../../admission/attributes.ts";
import type { AdmissionPlugin } from "../../../../admission/interfaces.ts";

export const defaultTolerationSecondsPluginName = "DefaultTolerationSeconds";
/** The flags' default (upstream's flag.Int64 defaults). */
export const defaultTolerationSeconds = 300;
/** `v1.TaintNodeNotReady` and `v1.TaintNodeUnreachable`. */
export const taintNodeNotReady = "node.kubernetes.io/not-ready";
export const taintNodeUnreachable = "node.kubernetes.io/unreachable";

export interface DefaultTolerationSecondsOptions {
  notReadyTolerationSeconds?: number;
  unreachableTolerationSeconds?: number;
}

type Toleration = { key?: string; operator?: string; value?: string; effect?: string; tolerationSeconds?: number };

/** A toleration without a key or effect matches every key or effect. */
function tolerates(t: Toleration, key: string): boolean {
  return (t.key === key || !t.key) && (t.effect === "NoExecute" || !t.effect);
}

/** `Plugin` (admission.NewHandler(Create, Update)); mutating only. */
export class DefaultTolerationSecondsPlugin implements AdmissionPlugin {
  readonly name = defaultTolerationSecondsPluginName;
  readonly #notReady: number;
  readonly #unreachable: number;

  constructor(o: DefaultTolerationSecondsOptions = {}) {
    this.#notReady = o.notReadyTolerationSeconds ?? defaultTolerationSeconds;
    this.#unreachable = o.unreachableTolerationSeconds ?? defaultTolerationSeconds;
  }

  handles(op: Operation): boolean {
    return op === "CREATE" || op === "UPDATE";
  }

  /** `Admit`: Pods proper only (not subresources). */
  async admit(a: Attributes): Promise<void> {
    if (a.resource.group !== "" || a.resource.resource !== "pods" || a.subresource !== "") return;
    const pod = a.object as (Record<string, unknown> & { kind?: string }) | undefined;
    if (pod === undefined || (pod.kind !== undefined && pod.kind !== "Pod"))
      throw StatusError.badRequest(`expected *api.Pod but got ${pod === undefined ? "<nil>" : String(pod.kind)}`);
    if (typeof pod["spec"] !== "object" || pod["spec"] === null) pod["spec"] = {};
    const spec = pod["spec"] as { tolerations?: Toleration[] };
    const tolerations = spec.tolerations ?? [];
    const added: Toleration[] = [];
    if (!tolerations.some((t) => tolerates(t, taintNodeNotReady)))
      added.push({ key: taintNodeNotReady, operator: "Exists", effect: "NoExecute", tolerationSeconds: this.#notReady });
    if (!tolerations.some((t) => tolerates(t, taintNodeUnreachable)))
      added.push({ key: taintNodeUnreachable, operator: "Exists", effect: "NoExecute", tolerationSeconds: this.#unreachable });
    if (added.length > 0) spec.tolerations = [...tolerations, ...added];
  }
}

/**
 * The flags as kube-apiserver parses them: Go's flag.Int64 (strconv.ParseInt base 0) wrapped by
 * pflag's `invalid argument` message.
 */
export function parseTolerationSecondsFlag(flag: string, v: string | undefined): number {
  if (v === undefined) return defaultTolerationSeconds;
  const n = parseGoInt64(v);
  if (n === undefined) throw new Error(`invalid argument ${JSON.stringify(v)} for "--${flag}" flag: parse error`);
  if (n === "range") throw new Error(`invalid argument ${JSON.stringify(v)} for "--${flag}" flag: value out of range`);
  return n;
}

/** strconv.ParseInt(s, 0, 64): sign, 0x/0o/0b/0 prefixes, underscores only with a prefix. */
function parseGoInt64(s: string): number | "range" | undefined {
  const m = /^([+-]?)(0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|0[0-7_]*|[1-9][0-9]*)$/.exec(s);
  if (!m) return undefined;
  const body = m[2]!;
  const prefixed = body.length > 1 && body[0] === "0";
  if (body.includes("_") && (!prefixed || /__|_$/.test(body) || /^0[xXbBoO]?_?$/.test(body))) return undefined;
  const digits = body.replace(/_/g, "");
  const lower = digits.toLowerCase();
  const value = /^0[xbo]/.test(lower) ? BigInt(lower) : prefixed ? BigInt(`0o${lower.slice(1)}`) : BigInt(lower);
  const signed = m[1] === "-" ? -value : value;
  if (signed > 9223372036854775807n || signed < -9223372036854775808n) return "range";
  return Number(signed);
}
