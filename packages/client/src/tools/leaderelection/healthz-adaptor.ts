/**
 * upstream `tools/leaderelection/healthzadaptor.go`: the `leaderElection` health check, healthy
 * until a leader fails to renew for the lease duration plus a tolerance. The elector is set once
 * it exists, so the check can be served before the election starts.
 */
import type { LeaderElector } from "./leader-election.ts";

export class LeaderHealthzAdaptor {
  readonly name = "leaderElection";
  readonly #timeoutMs: number;
  #le: LeaderElector | undefined;

  /** upstream `NewLeaderHealthzAdaptor(timeout)`: kube-controller-manager tolerates 20 s. */
  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  setLeaderElection(le: LeaderElector): void {
    this.#le = le;
  }

  check(): void {
    this.#le?.check(this.#timeoutMs);
  }
}
