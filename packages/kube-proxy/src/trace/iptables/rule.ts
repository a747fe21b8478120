/**
 * One iptables rule of the subset kube-proxy writes, parsed into matches and a
 * target (the fields of upstream's iptablestest.Rule in
 * pkg/util/iptables/testing/parse.go, plus the ones the tracer needs to
 * evaluate rather than skip: mark, conntrack, recent, statistic).
 */
import { addressMatcher, type AddressMatcher } from "../addresses.ts";
import { splitWords } from "./tokenize.ts";

/** A match that can be negated with `!`. */
export interface Negatable<T> {
  readonly negated: boolean;
  readonly value: T;
}

export interface IptablesRule {
  /** The rule as written, after `-A CHAIN `. */
  readonly raw: string;
  readonly comment?: string;
  readonly protocol?: Negatable<string>;
  readonly source?: Negatable<AddressMatcher>;
  readonly destination?: Negatable<AddressMatcher>;
  readonly sourceType?: Negatable<string>;
  readonly destinationType?: Negatable<string>;
  readonly destinationPort?: Negatable<number>;
  /** `-m conntrack --ctstate A,B`. */
  readonly ctState?: Negatable<readonly string[]>;
  /** `-m mark --mark value/mask`. */
  readonly mark?: Negatable<{ value: number; mask: number }>;
  /** `-m recent --name N --rcheck` (an affinity check) or `--set`. */
  readonly recent?: { name: string; op: "rcheck" | "set"; seconds?: number };
  /** `-m statistic --mode random --probability p`. */
  readonly probability?: number;
  /** `-j TARGET` or `-g CHAIN`; absent for a counting-only rule. */
  readonly target?: string;
  readonly goto: boolean;
  /** Target options: `--to-destination`, `--or-mark`, `--xor-mark`, `--set-xmark`. */
  readonly toDestination?: string;
  readonly orMark?: number;
  readonly xorMark?: number;
}

// Options that take no part in the decision for a new connection's first packet.
const ignoredWithValue = new Set(["--nfacct-name", "--mask", "--reject-with", "--to-ports"]);
const ignoredFlags = new Set(["--rsource", "--reap", "--random-fully", "--random"]);

/**
 * Parses the words after `-A CHAIN`.
 * @throws Error naming the option on anything outside the subset.
 */
export function parseRule(raw: string): IptablesRule {
  const w = splitWords(raw);
  const r: { -readonly [K in keyof IptablesRule]?: IptablesRule[K] } = { raw, goto: false };
  let negated = false;
  const value = (i: number): string => {
    const v = w[i + 1];
    if (v === undefined) throw new Error(`option ${w[i]} without a value in ${JSON.stringify(raw)}`);
    return v;
  };
  const neg = <T>(v: T): Negatable<T> => ({ negated, value: v });
  for (let i = 0; i < w.length; i++) {
    const word = w[i] ?? "";
    if (word === "!") {
      negated = true;
      continue;
    }
    let used = 1;
    switch (word) {
      case "-m":
        break; // the module's options follow
      case "--comment":
        r.comment = value(i);
        break;
      case "-p":
        r.protocol = neg(value(i));
        break;
      case "-s":
        r.source = neg(addressMatcher(value(i)));
        break;
      case "-d":
        r.destination = neg(addressMatcher(value(i)));
        break;
      case "--src-type":
        r.sourceType = neg(value(i));
        break;
      case "--dst-type":
        r.destinationType = neg(value(i));
        break;
      case "--dport":
        r.destinationPort = neg(Number(value(i)));
        break;
      case "--ctstate":
        r.ctState = neg(value(i).split(","));
        break;
      case "--mark":
        r.mark = neg(parseMark(value(i)));
        break;
      case "--name":
        r.recent = {
          name: value(i),
          op: r.recent?.op ?? "rcheck",
          ...(r.recent?.seconds !== undefined ? { seconds: r.recent.seconds } : {}),
        };
        break;
      case "--rcheck":
      case "--set":
        r.recent = { name: r.recent?.name ?? "DEFAULT", op: word === "--set" ? "set" : "rcheck" };
        used = 0;
        break;
      case "--seconds":
        r.recent = { name: r.recent?.name ?? "DEFAULT", op: r.recent?.op ?? "rcheck", seconds: Number(value(i)) };
        break;
      case "--mode":
        if (value(i) !== "random") throw new Error(`statistic mode ${value(i)} is not supported`);
        break;
      case "--probability":
        r.probability = Number(value(i));
        break;
      case "-j":
      case "-g":
        r.target = value(i);
        r.goto = word === "-g";
        break;
      case "--to-destination":
        r.toDestination = value(i);
        break;
      case "--or-mark":
        r.orMark = Number(value(i));
        break;
      case "--xor-mark":
        r.xorMark = Number(value(i));
        break;
      case "--set-xmark": {
        const m = parseMark(value(i));
        // --set-xmark v/m: mark = (mark AND NOT m) XOR v; kube-proxy writes it only as --or/--xor.
        r.orMark = m.value;
        break;
      }
      default:
        if (ignoredWithValue.has(word)) break;
        if (ignoredFlags.has(word)) {
          used = 0;
          break;
        }
        if (i > 0 && w[i - 1] === "-m") {
          used = 0; // a module name
          break;
        }
        throw new Error(`unsupported iptables option ${JSON.stringify(word)} in ${JSON.stringify(raw)}`);
    }
    negated = false;
    i += used;
  }
  return r as IptablesRule;
}

function parseMark(s: string): { value: number; mask: number } {
  const [v, m] = s.split("/");
  return { value: Number(v), mask: m === undefined ? 0xffffffff : Number(m) };
}
