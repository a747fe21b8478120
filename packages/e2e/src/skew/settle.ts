/**
 * Waiting for the repair loops: re-read storage until an audit passes a predicate. A duplicate
 * ClusterIP fails at once (nothing repairs it: two Services really hold one address).
 */
import type { Store } from "@servicenet/apiserver";
import { sleep } from "./shared-cluster.ts";
import { audit, auditLine, readView, type Audit, type StorageView } from "./storage-audit.ts";

/** The audit that passed, the view it came from, and how long it took to get there. */
export interface Settled {
  audit: Audit;
  view: StorageView;
  ms: number;
}

/** Audits storage every `everyMs` until `ok(audit)`; throws on duplicates or after `timeoutMs` (naming `what`). */
export async function settle(store: Store, what: string, ok: (a: Audit) => boolean, timeoutMs = 30_000, everyMs = 500): Promise<Settled> {
  const started = performance.now();
  for (;;) {
    const view = await readView(store);
    const a = audit(view);
    if (a.duplicates.length > 0) throw new Error(`${what}: duplicate ClusterIPs: ${a.duplicates.slice(0, 10).join("; ")}`);
    if (ok(a)) return { audit: a, view, ms: Math.round(performance.now() - started) };
    if (performance.now() - started > timeoutMs) {
      throw new Error(
        `${what}: not settled in ${timeoutMs} ms: ${auditLine(a)}; e.g. missing IPAddress ${a.missingIPAddresses.slice(0, 5).join(", ")}; ` +
          `missing bit ${a.missingBits.slice(0, 5).join(", ")}; extra bits ${a.extraBits.slice(0, 5).join(", ")}; orphans ${a.orphans
            .slice(0, 5)
            .map((o) => `${o.ip} (${Math.round(o.ageMs / 1000)} s)`)
            .join(", ")}`,
      );
    }
    await sleep(everyMs);
  }
}

/** How long to wait for the youngest orphan to pass upstream's 60 s grace, plus `slackMs` for the repair loop. */
export function orphanWaitMs(a: Audit, slackMs = 15_000, graceMs = 60_000): number {
  const youngest = Math.min(graceMs, ...a.orphans.map((o) => o.ageMs));
  return Math.max(0, graceMs - youngest) + slackMs;
}
