/**
 * pkg/controller/deployment/rollback.go: the legacy rollback requested through the
 * `deprecated.deployment.rollback.to` annotation: the Deployment takes the template (and copied
 * annotations) of the ReplicaSet of that revision, or of the previous one for revision 0.
 */
import type { Deployment, ReplicaSet } from "@servicenet/api";
import { deploymentEvent, type DeploymentSyncContext } from "./context.ts";
import { setRollbackTo, getRollbackTo } from "./rollback-annotation.ts";
import { getAllReplicaSetsAndSyncRevision } from "./sync.ts";
import { lastRevision, revision, setDeploymentAnnotationsTo } from "./util/annotations.ts";
import { rollbackDone, rollbackRevisionNotFound, rollbackTemplateUnchanged } from "./util/conditions.ts";
import { equalIgnoreHash, setFromReplicaSetTemplate } from "./util/replicaset-util.ts";

/** `rollback`. */
export async function rollback(dc: DeploymentSyncContext, d: Deployment, rsList: ReplicaSet[]): Promise<void> {
  const [newRS, allOldRSs] = await getAllReplicaSetsAndSyncRevision(dc, d, rsList, true);
  const allRSs = [...allOldRSs, ...(newRS !== undefined ? [newRS] : [])];
  let to = getRollbackTo(d)?.revision ?? 0;
  if (to === 0) {
    to = lastRevision(allRSs);
    if (to === 0) {
      deploymentEvent(dc, d, "Warning", rollbackRevisionNotFound, "Unable to find last revision.");
      return updateDeploymentAndClearRollbackTo(dc, d);
    }
  }
  for (const rs of allRSs) {
    let v: number;
    try {
      v = revision(rs);
    } catch {
      continue;
    }
    if (v !== to) continue;
    const performed = await rollbackToTemplate(dc, d, rs);
    if (performed)
      deploymentEvent(dc, d, "Normal", rollbackDone, `Rolled back deployment ${JSON.stringify(d.metadata.name ?? "")} to revision ${to}`);
    return;
  }
  deploymentEvent(dc, d, "Warning", rollbackRevisionNotFound, "Unable to find the revision to rollback to.");
  return updateDeploymentAndClearRollbackTo(dc, d);
}

/** `rollbackToTemplate`: true when the template changed (same template: a warning, no change). */
async function rollbackToTemplate(dc: DeploymentSyncContext, d: Deployment, rs: ReplicaSet): Promise<boolean> {
  let performed = false;
  if (!equalIgnoreHash(d.spec.template, rs.spec.template)) {
    setFromReplicaSetTemplate(d, rs.spec.template ?? { metadata: {}, spec: { containers: [] } });
    // The Deployment takes the ReplicaSet's annotations back (change-cause), or the current ones would be copied onto it.
    setDeploymentAnnotationsTo(d, rs);
    performed = true;
  } else {
    const msg = `The rollback revision contains the same template as current deployment ${JSON.stringify(d.metadata.name ?? "")}`;
    deploymentEvent(dc, d, "Warning", rollbackTemplateUnchanged, msg);
  }
  await updateDeploymentAndClearRollbackTo(dc, d);
  return performed;
}

/** `updateDeploymentAndClearRollbackTo`. */
async function updateDeploymentAndClearRollbackTo(dc: DeploymentSyncContext, d: Deployment): Promise<void> {
  setRollbackTo(d, undefined);
  await dc.client.updateDeployment(d);
}
