/**
 * Graceful deletion's decision, as k8s.io/apiserver/pkg/registry/rest/delete.go `BeforeDelete`:
 * for a kind whose strategy supports graceful deletion (`checkGracefulDelete`), a DELETE sets
 * `deletionTimestamp` (now + grace period) and `deletionGracePeriodSeconds` instead of removing the
 * object; a later DELETE may only shorten the period, and one with grace 0 removes it.
 */
import type { KubeObject } from "../../storage/index.ts";
import { nowRFC3339 } from "../generic/names.ts";

/** The DeleteOptions field BeforeDelete reads and defaults. */
export interface GracefulDeleteOptions {
  gracePeriodSeconds?: number | undefined;
}

/** `RESTGracefulDeleteStrategy`. */
export interface GracefulDeleteStrategy {
  /**
   * `CheckGracefulDelete`: true if `obj` is deleted gracefully; sets `options.gracePeriodSeconds`
   * to the period to use (0 deletes at once, after the deletionTimestamp is written).
   */
  checkGracefulDelete?(obj: KubeObject, options: GracefulDeleteOptions): boolean;
}

/** What BeforeDelete decided. */
export interface BeforeDeleteResult {
  /** The object (updated in place) is to be written as deleting with `options.gracePeriodSeconds`. */
  graceful: boolean;
  /** A graceful deletion with a period no longer than asked for is already under way: nothing to do. */
  gracefulPending: boolean;
}

const at = (ms: number): string => nowRFC3339(new Date(ms));

/**
 * `BeforeDelete`: updates `obj` (deletionTimestamp, deletionGracePeriodSeconds, generation on the
 * first graceful delete) and `options` (the grace period decided) as upstream.
 */
export function beforeDelete(
  strategy: GracefulDeleteStrategy,
  obj: KubeObject,
  options: GracefulDeleteOptions,
  nowMs = Date.now(),
): BeforeDeleteResult {
  const meta = obj.metadata as KubeObject["metadata"] & { deletionGracePeriodSeconds?: number };
  // Negative values are treated as 1s on the delete path.
  if (options.gracePeriodSeconds !== undefined && options.gracePeriodSeconds < 0) options.gracePeriodSeconds = 1;
  if (meta.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds < 0) meta.deletionGracePeriodSeconds = 1;
  if (strategy.checkGracefulDelete === undefined) return { graceful: false, gracefulPending: false };
  if (meta.deletionTimestamp !== undefined) {
    const current = meta.deletionGracePeriodSeconds;
    // Marked deleting with no (or a zero) grace period: the first phase succeeded and the removal
    // did not; delete now to recover.
    if (current === undefined || current === 0) return { graceful: false, gracefulPending: false };
    if (options.gracePeriodSeconds === undefined) {
      options.gracePeriodSeconds = current;
      return { graceful: false, gracefulPending: true };
    }
    // Only a shorter grace period may be given.
    const period = options.gracePeriodSeconds;
    if (period >= current) return { graceful: false, gracefulPending: true };
    meta.deletionTimestamp = at(Date.parse(meta.deletionTimestamp) - current * 1000 + period * 1000);
    meta.deletionGracePeriodSeconds = period;
    return { graceful: true, gracefulPending: false };
  }
  if (!strategy.checkGracefulDelete(obj, options)) return { graceful: false, gracefulPending: false };
  const period = options.gracePeriodSeconds ?? 0;
  meta.deletionTimestamp = at(nowMs + period * 1000);
  meta.deletionGracePeriodSeconds = period;
  // The first graceful deletion is a change controllers act on: bump generation (if tracked).
  if (typeof meta.generation === "number" && meta.generation > 0) meta.generation += 1;
  return { graceful: true, gracefulPending: false };
}
