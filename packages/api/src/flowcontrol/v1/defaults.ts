/** flowcontrol/v1 defaulting (pkg/apis/flowcontrol/v1/defaults.go). */
import type { FlowSchema, PriorityLevelConfiguration, QueuingConfiguration } from "./types.ts";

export const flowSchemaDefaultMatchingPrecedence = 1000;
export const priorityLevelConfigurationDefaultHandSize = 8;
export const priorityLevelConfigurationDefaultQueues = 64;
export const priorityLevelConfigurationDefaultQueueLengthLimit = 50;
export const priorityLevelConfigurationDefaultNominalConcurrencyShares = 30;

/** SetDefaults_FlowSchemaSpec: a zero matchingPrecedence becomes 1000. */
export function setDefaultsFlowSchema(fs: FlowSchema): void {
  if (fs.spec && (fs.spec.matchingPrecedence ?? 0) === 0) fs.spec.matchingPrecedence = flowSchemaDefaultMatchingPrecedence;
}

/**
 * SetDefaults_ExemptPriorityLevelConfiguration, SetDefaults_LimitedPriorityLevelConfiguration and
 * SetDefaults_QueuingConfiguration. In v1 nominalConcurrencyShares is a pointer: only an absent value
 * is defaulted (to 30 for Limited), an explicit 0 stays.
 */
export function setDefaultsPriorityLevelConfiguration(pl: PriorityLevelConfiguration): void {
  const spec = pl.spec;
  if (!spec) return;
  if (spec.exempt) {
    spec.exempt.nominalConcurrencyShares ??= 0;
    spec.exempt.lendablePercent ??= 0;
  }
  const limited = spec.limited;
  if (limited) {
    limited.nominalConcurrencyShares ??= priorityLevelConfigurationDefaultNominalConcurrencyShares;
    limited.lendablePercent ??= 0;
    if (limited.limitResponse?.queuing) setDefaultsQueuingConfiguration(limited.limitResponse.queuing);
  }
}

function setDefaultsQueuingConfiguration(q: QueuingConfiguration): void {
  if ((q.handSize ?? 0) === 0) q.handSize = priorityLevelConfigurationDefaultHandSize;
  if ((q.queues ?? 0) === 0) q.queues = priorityLevelConfigurationDefaultQueues;
  if ((q.queueLengthLimit ?? 0) === 0) q.queueLengthLimit = priorityLevelConfigurationDefaultQueueLengthLimit;
}
