/**
 * Runtime cost tracking, as cel-go's interpreter/runtimecost.go CostTracker does for Kubernetes:
 * every step the interpreter takes costs a unit (a literal costs nothing). With the library cost
 * estimator (k8s.io/apiserver/pkg/cel/environment/base.go StrictCostOpt, `cel.CostTracking(
 * &library.CostEstimator{})`, which the strict-cost environments add) the Kubernetes library
 * functions also charge for the strings and lists they walk and an authorization check its fixed
 * cost; without it (StrictCostEnforcementForVAP/ForWebhooks off) a library call costs its step
 * alone. An evaluation that passes its limit fails with cel-go's message.
 */
import type { ASTNode } from "@marcbachmann/cel-js";
import { costLimitExceededMessage } from "./limits.ts";

/** The cost an evaluation has run up, against its limit. */
export class CostTracker {
  cost = 0;
  readonly limit: number;
  /** The library cost estimator is installed: library functions' own costs count. */
  readonly libraryCosts: boolean;
  constructor(limit: number, libraryCosts = true) {
    this.limit = limit;
    this.libraryCosts = libraryCosts;
  }
  /** True once the cost is past the limit. */
  get exceeded(): boolean {
    return this.cost > this.limit;
  }
  add(units: number): void {
    this.cost += units;
    if (this.exceeded) throw new CostLimitExceededError();
  }
}

/** An evaluation cancelled because it cost more than its limit. */
export class CostLimitExceededError extends Error {
  constructor() {
    super(costLimitExceededMessage);
    this.name = "CostLimitExceededError";
  }
}

// Evaluation is synchronous (no library function is async), so one tracker is active at a time.
let active: CostTracker | undefined;

/**
 * Adds a library function's own cost (library/cost.go CallCost: size-dependent walks, the
 * authorizer's check) to the running evaluation, when it tracks with the library estimator.
 */
export function chargeCost(units: number): void {
  if (active?.libraryCosts === true) active.add(units);
}

/** Runs `fn` with `tracker` charged for every step it takes. */
export function withCostTracker<T>(tracker: CostTracker, fn: () => T): T {
  const previous = active;
  active = tracker;
  try {
    return fn();
  } finally {
    active = previous;
  }
}

type Evaluate = (this: ASTNode, ev: unknown, ast: ASTNode, ctx: unknown) => unknown;

function isNode(v: unknown): v is ASTNode {
  return typeof v === "object" && v !== null && typeof (v as { op?: unknown }).op === "string" && "args" in v;
}

/**
 * Makes every node of a parsed expression charge the active tracker when the interpreter steps
 * through it. The interpreter swaps a node's `evaluate` for a specialised one on first use, so the
 * node keeps whichever it is given behind an accessor that charges first.
 */
export function instrumentCost(root: ASTNode): void {
  const seen = new Set<ASTNode>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (!isNode(v) || seen.has(v)) return;
    seen.add(v);
    const unitCost = v.op === "value" ? 0 : 1;
    const first = (Object.getPrototypeOf(v) as { evaluate: Evaluate }).evaluate;
    let inner: Evaluate | undefined;
    const charged: Evaluate = function (ev, ast, ctx) {
      if (unitCost !== 0) active?.add(unitCost);
      return inner!.call(this, ev, ast, ctx);
    };
    Object.defineProperty(v, "evaluate", {
      configurable: true,
      get: () => (inner === undefined ? first : charged),
      set: (fn: Evaluate) => {
        inner = fn;
      },
    });
    visit(v.args);
  };
  visit(root);
}
