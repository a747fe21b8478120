/**
 * The FlowSchemas' `Dangling` condition the config controller keeps (staging/src/k8s.io/apiserver/
 * pkg/util/flowcontrol/apf_controller.go, digestConfigObjects / updateObservations): True with
 * reason NotFound while the schema names a priority level that does not exist, else False with
 * reason Found; `lastTransitionTime` set whenever it is written.
 */
import type { FlowSchema, FlowSchemaCondition } from "@servicenet/api/flowcontrol/v1";
import { formatRFC3339 } from "../time/rfc3339.ts";

/** FlowSchemaConditionDangling. */
export const flowSchemaConditionDangling = "Dangling";

/** The condition `fs` should carry, or undefined when the one it has already says so. */
export function desiredDanglingCondition(fs: FlowSchema, priorityLevels: ReadonlySet<string>, now: Date): FlowSchemaCondition | undefined {
  const plName = fs.spec?.priorityLevelConfiguration.name ?? "";
  const dangling = !priorityLevels.has(plName);
  const status = dangling ? "True" : "False";
  const reason = dangling ? "NotFound" : "Found";
  const message = dangling
    ? `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(plName)} but there is no such object`
    : `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(plName)} and it exists`;
  const have = fs.status?.conditions?.find((c) => c.type === flowSchemaConditionDangling);
  if (have?.status === status && have.reason === reason && have.message === message) return undefined;
  return { type: flowSchemaConditionDangling, status, lastTransitionTime: formatRFC3339(now), reason, message };
}

/** `fs`'s status with `cond` in place of its Dangling condition (others kept, in order). */
export function withCondition(fs: FlowSchema, cond: FlowSchemaCondition): FlowSchema {
  const conditions = fs.status?.conditions ?? [];
  const i = conditions.findIndex((c) => c.type === cond.type);
  const next = i >= 0 ? conditions.map((c, j) => (j === i ? cond : c)) : [...conditions, cond];
  return { ...fs, status: { ...fs.status, conditions: next } };
}
