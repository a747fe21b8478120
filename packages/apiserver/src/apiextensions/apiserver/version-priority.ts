/**
 * Kube-aware version ordering (apimachinery pkg/version/helpers.go CompareKubeAwareVersionStrings):
 * GA before beta before alpha, higher numbers first, then anything else alphabetically. Discovery
 * lists a CRD group's versions in this order and prefers the first.
 */
const kubeVersion = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

function rank(v: string): [number, number, number] | undefined {
  const m = kubeVersion.exec(v);
  if (!m) return undefined;
  const stage = m[2] === undefined ? 2 : m[2] === "beta" ? 1 : 0;
  return [stage, Number(m[1]), m[3] === undefined ? 0 : Number(m[3])];
}

/** Negative when `a` sorts before `b` (has the higher priority). */
export function compareKubeAwareVersions(a: string, b: string): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra && rb) {
    for (let i = 0; i < 3; i++) if (ra[i] !== rb[i]) return rb[i]! - ra[i]!;
    return 0;
  }
  if (ra) return -1;
  if (rb) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
