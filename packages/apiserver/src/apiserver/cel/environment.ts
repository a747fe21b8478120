/**
 * A CEL environment with Kubernetes' libraries and declared variables, compiling expressions into
 * programs that run under a cost limit (k8s.io/apiserver/pkg/cel/environment/base.go and
 * k8s.io/apiserver/pkg/admission/plugin/cel/compile.go). Built on @marcbachmann/cel-js, whose
 * checker types expressions against the declarations before anything runs.
 */
import { Environment, type ASTNode } from "@marcbachmann/cel-js";
import { celGoRuntimeMessage, toDisplayString, undeclaredFunction } from "./issues.ts";
import { CostLimitExceededError, CostTracker, instrumentCost, withCostTracker } from "./cost.ts";
import { kubernetesLibraries } from "./library/libraries.ts";
import { celEqual } from "./library/lists.ts";
import type { Library } from "./library/library.ts";
import { perCallLimit } from "./limits.ts";
import { toCEL } from "./values.ts";

/** upstream apiservercel.ErrorType. */
export type ErrorType = "Required" | "Invalid" | "Internal";

/** A compile or runtime failure (k8s.io/apiserver/pkg/cel/errors.go Error). */
export class CELError extends Error {
  readonly type: ErrorType;
  readonly detail: string;
  constructor(type: ErrorType, detail: string, cause?: unknown) {
    super(detail, { cause });
    this.name = "CELError";
    this.type = type;
    this.detail = detail;
  }
}

export interface EnvironmentOptions {
  /** Variable name to CEL type ("dyn", "map<string, dyn>", "bool", "net.IP", ...). */
  variables?: Readonly<Record<string, string>>;
  /** Defaults to the Kubernetes libraries. */
  libraries?: readonly Library[];
  /**
   * Object types by name and their fields' CEL types, for variables declared with them (a CRD
   * schema's types). Objects of these types compare with `==` and `!=`.
   */
  objectTypes?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /**
   * Programs charge the library functions' costs (environment/base.go MustBaseEnvSet's
   * `strictCost`: StrictCostOpt's library cost estimator); default true. Admission turns it off with
   * StrictCostEnforcementForVAP/ForWebhooks; CRD validation rules always have it.
   */
  strictCost?: boolean;
}

/** The outcome of type-checking one expression: its output type, or the checker's error. */
export type CheckResult = { type: string; error?: undefined } | { type?: undefined; error: CELError };

/** What a run of a program used and gave. */
export interface EvalResult {
  value: unknown;
  /** The cost units the evaluation ran up. */
  cost: number;
}

/** A cost budget shared by several evaluations (one request's expressions). */
export interface CostBudget {
  remaining: number;
}

export interface EvalOptions {
  /** The most this one evaluation may cost; defaults to PerCallLimit. */
  perCallLimit?: number;
  /** A budget to draw from; the evaluation's cost is taken from it. */
  budget?: CostBudget;
}

// cel-js' messages carry the source with a caret on the lines after the first.
const firstLine = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split("\n")[0]!;

/** The identifiers an expression names (its `id` nodes). */
function identifiers(root: ASTNode): Set<string> {
  const out = new Set<string>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (typeof v !== "object" || v === null || !("op" in v)) return;
    const n = v as ASTNode;
    if (n.op === "id" && typeof n.args === "string") out.add(n.args);
    else visit(n.args);
  };
  visit(root);
  return out;
}

type Parsed = ReturnType<Environment["parse"]>;

/** A compiled, type-checked expression. */
export class Program {
  readonly expression: string;
  /** The checked output type ("bool", "string", "dyn", ...). */
  readonly outputType: string;
  /** The declared variables the expression refers to (cel-go's checked reference map). */
  readonly references: ReadonlySet<string>;
  /** The checked syntax tree (for static cost estimates). */
  readonly ast: ASTNode | undefined;
  /** Evaluations charge the library functions' costs (the environment's `strictCost`). */
  readonly strictCost: boolean;
  private readonly run: (ctx: Record<string, unknown>) => unknown;

  constructor(
    expression: string,
    outputType: string,
    run: (ctx: Record<string, unknown>) => unknown,
    references: ReadonlySet<string> = new Set(),
    ast?: ASTNode,
    strictCost = true,
  ) {
    this.ast = ast;
    this.strictCost = strictCost;
    this.expression = expression;
    this.outputType = outputType;
    this.references = references;
    this.run = run;
  }

  /**
   * Evaluates with `activation` (JSON values are read as CEL values: integral numbers are ints).
   * Throws a CELError: Invalid for a runtime error, or cel-go's cost message past the limit.
   */
  evaluate(activation: Readonly<Record<string, unknown>>, o: EvalOptions = {}): EvalResult {
    const limit = Math.min(o.perCallLimit ?? perCallLimit, o.budget?.remaining ?? Infinity);
    const tracker = new CostTracker(limit, this.strictCost);
    const ctx: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(activation)) ctx[k] = toCEL(v);
    try {
      const value = withCostTracker(tracker, () => this.run(ctx));
      // A cost error inside `a || b` is absorbed by CEL's error semantics: look again.
      if (tracker.exceeded) throw new CostLimitExceededError();
      return { value, cost: tracker.cost };
    } catch (e) {
      throw new CELError("Invalid", celGoRuntimeMessage(firstLine(e)), e);
    } finally {
      if (o.budget !== undefined) o.budget.remaining -= Math.min(tracker.cost, o.budget.remaining);
    }
  }
}

/** The outcome of compiling one expression: a program, or the error upstream reports. */
export type CompilationResult = { program: Program; error?: undefined } | { program?: undefined; error: CELError };

/** An environment of declared variables and libraries in which expressions are compiled. */
export class CELEnvironment {
  private readonly env: Environment;
  private readonly variables: ReadonlySet<string>;
  /** The functions the libraries declare, by name (cel-go's env.LookupFunction). */
  private readonly functions: ReadonlySet<string>;
  private readonly strictCost: boolean;

  constructor(o: EnvironmentOptions = {}) {
    this.strictCost = o.strictCost ?? true;
    this.env = new Environment({ homogeneousAggregateLiterals: false, enableOptionalTypes: true });
    for (const lib of o.libraries ?? kubernetesLibraries) lib.register(this.env);
    for (const [name, fields] of Object.entries(o.objectTypes ?? {})) {
      this.env.registerType(name, { fields: { ...fields } });
      // cel-go compares any two values of one type; cel-js declares `==` (and so `!=`) per type.
      this.env.registerOperator(`${name} == ${name}`, (a: unknown, b: unknown) => celEqual(a, b));
    }
    for (const [name, type] of Object.entries(o.variables ?? {})) this.env.registerVariable(name, type);
    this.variables = new Set(Object.keys(o.variables ?? {}));
    this.functions = new Set(this.env.getDefinitions().functions.map((f) => f.name));
  }

  /**
   * Parses and type-checks `expression` without making a program: its output type, or the error
   * worded as cel-go's (the checker's own message is the error's cause).
   */
  check(expression: string): CheckResult {
    const r = this.parseAndCheck(expression);
    return r.error !== undefined ? { error: r.error } : { type: r.type };
  }

  private parseAndCheck(expression: string): { parsed: Parsed; type: string; error?: undefined } | { error: CELError } {
    let parsed: Parsed;
    try {
      parsed = this.env.parse(expression);
    } catch (e) {
      return { error: new CELError("Invalid", `compilation failed: ${toDisplayString(expression, e, true)}`, e) };
    }
    const checked = parsed.check();
    if (checked.valid) return { parsed, type: checked.type ?? "dyn" };
    const display = undeclaredFunction(expression, checked.error, this.functions) ?? toDisplayString(expression, checked.error, false);
    return { error: new CELError("Invalid", `compilation failed: ${display}`, checked.error) };
  }

  /** Parses and type-checks `expression` (compile.go CompileCELExpression). */
  compile(expression: string): CompilationResult {
    if (expression.trim() === "") return { error: new CELError("Required", "compilation failed: expression is empty") };
    const r = this.parseAndCheck(expression);
    if (r.error !== undefined) return { error: r.error };
    const parsed = r.parsed;
    instrumentCost(parsed.ast);
    const references = new Set([...identifiers(parsed.ast)].filter((n) => this.variables.has(n)));
    return { program: new Program(expression, r.type, (ctx) => parsed(ctx), references, parsed.ast, this.strictCost) };
  }
}
