/**
 * The hook sequence of a new connection and the per-path state the rule
 * evaluators update: PREROUTING, the routing decision (INPUT for the node's own
 * addresses, else FORWARD then POSTROUTING); or OUTPUT, POSTROUTING and, for a
 * local destination, INPUT. Each evaluator runs the chains attached to one hook.
 */
import { canonicalIP, joinHostPort, type LocalAddresses } from "./addresses.ts";
import type { Hook, TraceOutcome, TracePacket, TraceStep } from "./types.ts";

/** One path through the rules so far. */
export interface PathState {
  prob: number;
  /** Current destination (rewritten by DNAT). */
  dst: string;
  dport: number;
  mark: number;
  dnat: string | undefined;
  masquerade: boolean;
  acceptedByRule: boolean;
  verdict: "drop" | "reject" | undefined;
  reason: string | undefined;
  affinity: string[];
  steps: TraceStep[];
}

/** Runs every chain attached to `hook`, returning the paths that leave it (forked by random branches). */
export type HookRunner = (hook: Hook, state: PathState) => PathState[];

/** A copy of `s` for a random branch taken with probability `p`. */
export function fork(s: PathState, p: number): PathState {
  return { ...s, prob: s.prob * p, affinity: [...s.affinity], steps: [...s.steps] };
}

/** Applies DNAT to `ipPort` ("1.2.3.4:80", "[fd00::1]:80" or a bare address). */
export function applyDNAT(s: PathState, ip: string, port: number | undefined): void {
  s.dst = canonicalIP(ip);
  if (port !== undefined) s.dport = port;
  s.dnat = joinHostPort(ip, s.dport);
}

/** Walks `packet` through the hooks; `runHook` evaluates one hook's chains. */
export function walk(packet: TracePacket, local: LocalAddresses, runHook: HookRunner): TraceOutcome[] {
  const initial: PathState = {
    prob: 1,
    dst: canonicalIP(packet.destination),
    dport: packet.port,
    mark: 0,
    dnat: undefined,
    masquerade: false,
    acceptedByRule: false,
    verdict: undefined,
    reason: undefined,
    affinity: [],
    steps: [],
  };
  const done: PathState[] = [];
  const run = (hook: Hook, states: PathState[]): PathState[] => {
    const next: PathState[] = [];
    for (const s of states) {
      for (const r of runHook(hook, s)) (r.verdict === undefined ? next : done).push(r);
    }
    return next;
  };
  let live = run(packet.origin, [initial]);
  if (packet.origin === "prerouting") {
    const toLocal = live.filter((s) => local.has(s.dst));
    const forwarded = live.filter((s) => !local.has(s.dst));
    done.push(...run("input", toLocal), ...run("postrouting", run("forward", forwarded)));
  } else {
    live = run("postrouting", live);
    done.push(
      ...run(
        "input",
        live.filter((s) => local.has(s.dst)),
      ),
      ...live.filter((s) => !local.has(s.dst)),
    );
  }
  return done.map(toOutcome);
}

function toOutcome(s: PathState): TraceOutcome {
  return {
    probability: s.prob,
    verdict: s.verdict ?? "accept",
    ...(s.dnat !== undefined ? { dnat: s.dnat } : {}),
    masquerade: s.verdict === undefined && s.masquerade,
    acceptedByRule: s.acceptedByRule,
    ...(s.verdict !== undefined && s.reason !== undefined ? { reason: s.reason } : {}),
    affinity: s.affinity,
    steps: s.steps,
  };
}
