/**
 * What compiling a CRD schema's x-kubernetes-validations says, reported on the CRD write
 * (apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go, the CEL half of
 * ValidateCustomResourceDefinitionOpenAPISchema, and cel_validation.go CELSchemaContext): compile
 * errors, `oldSelf` under lists and maps whose items cannot be correlated, and estimated costs
 * against StaticEstimatedCostLimit per expression and StaticEstimatedCRDCostLimit per schema.
 */
import { field, path, type FieldErrorList } from "../../errors/field-error.ts";
import { keyPath } from "../../errors/field-error.ts";
import type { JSONSchemaProps } from "./types.ts";
import { validationRules, validationRuleValue, type RuleCompilation, type ValidationRuleCompiler } from "./validation-rules.ts";

/** The most one expression may cost in the worst case (validation.go StaticEstimatedCostLimit). */
export const staticEstimatedCostLimit = 10_000_000;
/** The most all expressions of one schema may cost together (validation.go StaticEstimatedCRDCostLimit). */
export const staticEstimatedCRDCostLimit = 100_000_000;

/** An expression's share of the schema's total, kept if it is among the four most expensive. */
interface Expensive {
  path: string;
  cost: number;
}

/** TotalCost: the schema's running total and its most expensive expressions. */
class TotalCost {
  total = 0;
  readonly mostExpensive: Expensive[] = [];
  observe(at: string, cost: number): void {
    this.total += cost;
    // Rules that contribute under 1% of the limit are not named.
    if (cost < staticEstimatedCRDCostLimit / 100) return;
    this.mostExpensive.push({ path: at, cost });
    this.mostExpensive.sort((a, b) => b.cost - a.cost);
    if (this.mostExpensive.length > 4) this.mostExpensive.length = 4;
  }
}

/** getCostErrorMessage. */
export function costErrorMessage(costName: string, cost: number, limit: number): string {
  const f = cost / limit;
  const factor = f > 100 ? "more than 100x" : f < 1.5 ? `${f.toFixed(6)}x` : `${f.toFixed(1)}x`;
  return (
    `${costName} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, ` +
    "and maxLength where arrays, maps, and strings are declared)"
  );
}

/** extractMaxElements: how many values a child of `s` stands for per occurrence of `s` (undefined: unbounded). */
function maxElements(s: JSONSchemaProps): number | undefined {
  if (s.type === "object" && s.additionalProperties !== undefined && typeof s.additionalProperties === "object") return s.maxProperties;
  if (s.type === "array") return s.maxItems;
  return 1;
}

interface Context {
  /** How often the node may occur in one object (undefined: unbounded). */
  cardinality: number | undefined;
  /** The highest list or map above the node whose values cannot be correlated with the old object's. */
  uncorrelatable: string | undefined;
  total: TotalCost;
  compile: ValidationRuleCompiler;
}

/** getExpressionCost: the cost of one evaluation times how often the node may occur. */
function expressionCost(cost: number, cr: RuleCompilation, ctx: Context): number {
  const n = ctx.cardinality ?? cr.maxCardinality ?? 1;
  return cost * n;
}

function child(ctx: Context, parent: JSONSchemaProps, forbidAt: string | undefined): Context {
  const max = maxElements(parent);
  const cardinality = ctx.cardinality === undefined || max === undefined ? undefined : ctx.cardinality * max;
  return { ...ctx, cardinality, uncorrelatable: ctx.uncorrelatable ?? forbidAt };
}

function nodeErrors(s: JSONSchemaProps, at: string, ctx: Context): FieldErrorList {
  const rules = validationRules(s);
  if (rules.length === 0) return [];
  const errs: FieldErrorList = [];
  ctx.compile(s, rules).forEach((cr, i) => {
    const p = path(`${at}.x-kubernetes-validations`, i);
    if (cr.maxCost !== undefined) {
      const cost = expressionCost(cr.maxCost, cr, ctx);
      if (cost > staticEstimatedCostLimit)
        errs.push(field.forbidden(`${p}.rule`, costErrorMessage("estimated rule cost", cost, staticEstimatedCostLimit)));
      ctx.total.observe(`${p}.rule`, cost);
    }
    if (cr.error !== undefined)
      errs.push(
        cr.error.type === "Required"
          ? field.required(`${p}.rule`, cr.error.detail)
          : field.invalid(`${p}.rule`, validationRuleValue(rules[i]!), cr.error.detail),
      );
    if (cr.messageExpressionError !== undefined)
      errs.push(field.invalid(`${p}.messageExpression`, validationRuleValue(rules[i]!), cr.messageExpressionError.detail));
    else if (cr.messageExpressionMaxCost !== undefined) {
      const cost = cr.messageExpressionMaxCost;
      if (cost > staticEstimatedCostLimit)
        errs.push(
          field.forbidden(`${p}.messageExpression`, costErrorMessage("estimated messageExpression cost", cost, staticEstimatedCostLimit)),
        );
      ctx.total.observe(`${p}.messageExpression`, cost);
    }
    if (cr.usesOldSelf && ctx.uncorrelatable !== undefined)
      errs.push(
        field.invalid(
          `${p}.rule`,
          rules[i]!.rule,
          `oldSelf cannot be used on the uncorrelatable portion of the schema within ${ctx.uncorrelatable}`,
        ),
      );
  });
  return errs;
}

function walk(s: JSONSchemaProps, at: string, ctx: Context): FieldErrorList {
  const errs: FieldErrorList = [];
  if (typeof s.additionalProperties === "object")
    errs.push(...walk(s.additionalProperties, `${at}.additionalProperties`, child(ctx, s, undefined)));
  // A map-type=atomic object is replaced whole: its properties have no old values to compare with.
  const atomicMap = s["x-kubernetes-map-type"] === "atomic" ? at : undefined;
  for (const [k, prop] of Object.entries(s.properties ?? {}))
    errs.push(...walk(prop, keyPath(`${at}.properties`, k), child(ctx, s, atomicMap)));
  // Only list-type=map items are correlated by their keys; set and atomic items are not.
  if (s.items !== undefined && !Array.isArray(s.items))
    errs.push(...walk(s.items, `${at}.items`, child(ctx, s, s["x-kubernetes-list-type"] === "map" ? undefined : at)));
  errs.push(...nodeErrors(s, at, ctx));
  return errs;
}

/**
 * The CEL errors of the version schema `schema` at `at` (`spec.versions[0].schema.openAPIV3Schema`),
 * to be run only when the schema itself is valid (upstream builds no CEL context otherwise).
 */
export function validateSchemaCEL(schema: JSONSchemaProps, at: string, compile: ValidationRuleCompiler): FieldErrorList {
  const total = new TotalCost();
  const errs = walk(schema, at, { cardinality: 1, uncorrelatable: undefined, total, compile });
  if (total.total > staticEstimatedCRDCostLimit) {
    for (const e of total.mostExpensive)
      errs.push(field.forbidden(e.path, "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"));
    errs.push(
      field.forbidden(
        at,
        costErrorMessage(
          "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema",
          total.total,
          staticEstimatedCRDCostLimit,
        ),
      ),
    );
  }
  return errs;
}
