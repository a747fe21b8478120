/** `slowStartBatch` (pkg/controller/replicaset/replica_set.go). */

/**
 * Calls `fn` `count` times in batches that start at `initialBatchSize` and double while every call
 * of a batch succeeds; the calls of one batch run concurrently. After a batch with a failure the
 * remaining batches are skipped, so a project out of quota does not send (and report) hundreds of
 * doomed creates. Returns the successful calls and the first error of the failed batch.
 */
export async function slowStartBatch(
  count: number,
  initialBatchSize: number,
  fn: () => Promise<void>,
): Promise<{ successes: number; error?: Error }> {
  let remaining = count;
  let successes = 0;
  for (let batchSize = Math.min(remaining, initialBatchSize); batchSize > 0; batchSize = Math.min(2 * batchSize, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: batchSize }, () => fn()));
    const errors = results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason as Error);
    successes += batchSize - errors.length;
    if (errors.length > 0) return { successes, error: errors[0]! };
    remaining -= batchSize;
  }
  return { successes };
}
