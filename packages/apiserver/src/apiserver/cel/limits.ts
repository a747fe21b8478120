/**
 * CEL cost limits, as k8s.io/apiserver/pkg/apis/cel/config.go defines them. A cost unit is
 * roughly one evaluation step (a call, a field selection, a comparison of one element).
 */

/** The most one evaluation of one expression may cost (config.go PerCallLimit). */
export const perCallLimit = 1_000_000;

/** The most the expressions of one request may cost together (config.go RuntimeCELCostBudget). */
export const runtimeCELCostBudget = 10_000_000;

/** The most the matchConditions of one webhook may cost together, per request (config.go RuntimeCELCostBudgetMatchConditions). */
export const runtimeCELCostBudgetMatchConditions = 2_500_000;

/** What the filter answers once the expressions have cost more than their budget (filter.go ForInput). */
export const outOfBudgetMessage = "validation failed due to running out of cost budget, no further validation rules will be run";

/** How often, in cost units, a running evaluation checks whether it was cancelled (config.go CheckFrequency). */
export const checkFrequency = 100;

/**
 * The most one expression may cost in the worst case estimated when it is written
 * (apiextensions-apiserver's StaticEstimatedCostLimit).
 */
export const staticEstimatedCostLimit = 10_000_000;

/** The message cel-go's interpreter gives when an evaluation runs past its cost limit. */
export const costLimitExceededMessage = "operation cancelled: actual cost limit exceeded";
