/** Ordering of resourceVersions, for caches that must not go back behind our own writes. */

/**
 * True if `have` is at least `want`. resourceVersions are opaque; when both are integers
 * (etcd/kine revisions, as servicenet's apiserver serves) they are ordered, else only equality counts.
 */
export function resourceVersionAtLeast(have: string | undefined, want: string): boolean {
  if (have === undefined) return false;
  if (/^\d+$/.test(have) && /^\d+$/.test(want)) return BigInt(have) >= BigInt(want);
  return have === want;
}
