/**
 * WithMaxInFlightLimit (staging/src/k8s.io/apiserver/pkg/server/filters/maxinflight.go), the
 * limit used when priority and fairness is off: at most `--max-requests-inflight` reads and
 * `--max-mutating-requests-inflight` writes at once (0 = unlimited); long-running requests are not
 * counted, and system:masters is never refused.
 */
import type { UserInfo } from "../../authentication/user/user.ts";
import type { CounterVec, GaugeVec } from "@servicenet/component-base/metrics";

const nonMutatingRequestVerbs = new Set(["get", "list", "watch"]);

/** The two in-flight counters. */
export class MaxInFlightLimit {
  readonly #limits: { readOnly: number; mutating: number };
  readonly #inflight = { readOnly: 0, mutating: 0 };
  readonly #dropped: CounterVec | undefined;
  readonly #current: GaugeVec | undefined;

  constructor(nonMutatingLimit: number, mutatingLimit: number, metrics?: { droppedRequests: CounterVec; currentInflight: GaugeVec }) {
    this.#limits = { readOnly: nonMutatingLimit, mutating: mutatingLimit };
    this.#dropped = metrics?.droppedRequests;
    this.#current = metrics?.currentInflight;
  }

  /**
   * Admits a request of `verb` (a RequestInfo verb, or a non-resource request's lower-cased
   * method): a release function, or undefined when it must get a 429.
   */
  admit(verb: string, longRunning: boolean, user: UserInfo | undefined): (() => void) | undefined {
    if (longRunning) return () => {};
    const kind = nonMutatingRequestVerbs.has(verb) ? "readOnly" : "mutating";
    const limit = this.#limits[kind];
    if (limit === 0) return () => {};
    if (this.#inflight[kind] >= limit) {
      // A system:master is so powerful that it should always get an answer.
      if (user?.groups.includes("system:masters")) return () => {};
      this.#dropped?.inc({ request_kind: kind });
      return undefined;
    }
    this.#inflight[kind]++;
    this.#current?.set({ request_kind: kind }, this.#inflight[kind]);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.#inflight[kind]--;
      this.#current?.set({ request_kind: kind }, this.#inflight[kind]);
    };
  }
}
