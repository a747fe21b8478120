/**
 * Finding and ordering a Deployment's ReplicaSets: `EqualIgnoreHash`, `FindNewReplicaSet`,
 * `FindOldReplicaSets`, `FindActiveOrLatest`, `SetFromReplicaSetTemplate` of
 * pkg/controller/deployment/util/deployment_util.go, the ReplicaSet sort orders of
 * pkg/controller/controller_utils.go, and the Deployment lister's `GetDeploymentsForReplicaSet`.
 */
import { labelSelectorAsSelector, type Deployment, type LabelSelector, type PodTemplateSpec, type ReplicaSet } from "@servicenet/api";
import { canonicalJSON } from "../../controller/compute-hash.ts";
import { revision } from "./annotations.ts";
import { rsReplicas } from "./replicas.ts";

/** `apps.DefaultDeploymentUniqueLabelKey`. */
export const defaultDeploymentUniqueLabelKey = "pod-template-hash";

/** labelsutil `CloneAndAddLabel` (an empty key changes nothing). */
export function cloneAndAddLabel(labels: Record<string, string> | undefined, key: string, value: string): Record<string, string> {
  return key === "" ? { ...labels } : { ...labels, [key]: value };
}

/** labelsutil `CloneAndRemoveLabel`. */
export function cloneAndRemoveLabel(labels: Record<string, string> | undefined, key: string): Record<string, string> | undefined {
  if (labels === undefined) return undefined;
  const { [key]: _removed, ...rest } = labels;
  return rest;
}

/** labelsutil `CloneSelectorAndAddLabel`: matchLabels gain the key; matchExpressions are copied. */
export function cloneSelectorAndAddLabel(selector: LabelSelector | undefined, key: string, value: string): LabelSelector {
  const s: LabelSelector = structuredClone(selector ?? {});
  if (key === "") return s;
  s.matchLabels = { ...s.matchLabels, [key]: value };
  return s;
}

/**
 * `EqualIgnoreHash`: the templates are semantically equal once `pod-template-hash` is dropped from
 * their labels (empty and absent lists and maps count as equal, as `apiequality.Semantic`).
 */
export function equalIgnoreHash(t1: PodTemplateSpec | undefined, t2: PodTemplateSpec | undefined): boolean {
  const strip = (t: PodTemplateSpec | undefined) =>
    t === undefined
      ? {}
      : { ...t, metadata: { ...t.metadata, labels: cloneAndRemoveLabel(t.metadata.labels, defaultDeploymentUniqueLabelKey) } };
  return canonicalJSON(strip(t1)) === canonicalJSON(strip(t2));
}

const createdMs = (rs: ReplicaSet): number => (rs.metadata.creationTimestamp ? Date.parse(rs.metadata.creationTimestamp) : 0);

/** `ReplicaSetsByCreationTimestamp.Less`: older first, then by name. */
export function byCreationTimestamp(a: ReplicaSet, b: ReplicaSet): number {
  const d = createdMs(a) - createdMs(b);
  if (d !== 0) return d;
  const [x, y] = [a.metadata.name ?? "", b.metadata.name ?? ""];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** `ReplicaSetsBySizeOlder`: larger first, older first among equals (scaling down takes from the older). */
export function bySizeOlder(a: ReplicaSet, b: ReplicaSet): number {
  return rsReplicas(a) === rsReplicas(b) ? byCreationTimestamp(a, b) : rsReplicas(b) - rsReplicas(a);
}

/** `ReplicaSetsBySizeNewer`: larger first, newer first among equals (scaling up gives to the newer). */
export function bySizeNewer(a: ReplicaSet, b: ReplicaSet): number {
  return rsReplicas(a) === rsReplicas(b) ? byCreationTimestamp(b, a) : rsReplicas(b) - rsReplicas(a);
}

/** `ReplicaSetsByRevision`: lower revision first (unparsable as 0), then by creation. */
export function byRevision(a: ReplicaSet, b: ReplicaSet): number {
  const rev = (rs: ReplicaSet) => {
    try {
      return revision(rs);
    } catch {
      return 0;
    }
  };
  return rev(a) === rev(b) ? byCreationTimestamp(a, b) : rev(a) - rev(b);
}

/** `FilterActiveReplicaSets`: the ReplicaSets with replicas > 0. */
export function filterActiveReplicaSets(rss: readonly (ReplicaSet | undefined)[]): ReplicaSet[] {
  return rss.filter((rs): rs is ReplicaSet => rs !== undefined && rsReplicas(rs) > 0);
}

/** `FindNewReplicaSet`: the oldest ReplicaSet whose template equals the Deployment's (hash ignored). */
export function findNewReplicaSet(d: Deployment, rsList: readonly ReplicaSet[]): ReplicaSet | undefined {
  return [...rsList].sort(byCreationTimestamp).find((rs) => equalIgnoreHash(rs.spec.template, d.spec.template));
}

/** `FindOldReplicaSets`: the old ReplicaSets with replicas, and all old ReplicaSets. */
export function findOldReplicaSets(d: Deployment, rsList: readonly ReplicaSet[]): [ReplicaSet[], ReplicaSet[]] {
  const newRS = findNewReplicaSet(d, rsList);
  const all = rsList.filter((rs) => newRS === undefined || rs.metadata.uid !== newRS.metadata.uid);
  return [all.filter((rs) => rsReplicas(rs) !== 0), all];
}

/**
 * `FindActiveOrLatest`: the one ReplicaSet with replicas, or (none having any) the new one, else the
 * newest old one; undefined when several have replicas.
 */
export function findActiveOrLatest(newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[]): ReplicaSet | undefined {
  if (newRS === undefined && oldRSs.length === 0) return undefined;
  const newestFirst = [...oldRSs].sort((a, b) => byCreationTimestamp(b, a));
  const active = filterActiveReplicaSets([...newestFirst, newRS]);
  if (active.length === 0) return newRS ?? newestFirst[0];
  return active.length === 1 ? active[0] : undefined;
}

/** `SetFromReplicaSetTemplate`: the Deployment takes the ReplicaSet's template, minus the hash label. */
export function setFromReplicaSetTemplate(d: Deployment, template: PodTemplateSpec): void {
  const t = structuredClone(template);
  const labels = cloneAndRemoveLabel(t.metadata.labels, defaultDeploymentUniqueLabelKey);
  t.metadata = { ...t.metadata, ...(labels !== undefined ? { labels } : {}) };
  d.spec.template = t;
}

/**
 * The Deployment lister's `GetDeploymentsForReplicaSet`: Deployments of the ReplicaSet's namespace
 * whose (non-empty, valid) selector matches its labels.
 * @throws Error with upstream's message when the ReplicaSet has no labels or none matches.
 */
export function getDeploymentsForReplicaSet(deployments: readonly Deployment[], rs: ReplicaSet): Deployment[] {
  const labels = rs.metadata.labels ?? {};
  if (Object.keys(labels).length === 0)
    throw new Error(`no deployments found for ReplicaSet ${rs.metadata.name ?? ""} because it has no labels`);
  const found = deployments.filter((d) => {
    if (d.metadata.namespace !== rs.metadata.namespace) return false;
    const s = d.spec.selector;
    if (s === undefined || (Object.keys(s.matchLabels ?? {}).length === 0 && (s.matchExpressions ?? []).length === 0)) return false;
    try {
      return labelSelectorAsSelector(s)(labels);
    } catch {
      return false;
    }
  });
  if (found.length === 0) {
    const printed = `map[${Object.keys(labels)
      .sort()
      .map((k) => `${k}:${labels[k]}`)
      .join(" ")}]`;
    throw new Error(
      `could not find deployments set for ReplicaSet ${rs.metadata.name ?? ""} in namespace ${rs.metadata.namespace ?? ""} with labels: ${printed}`,
    );
  }
  return found;
}
