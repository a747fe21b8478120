/**
 * The static (estimated) worst-case cost of a rule, as cel-go's checker/cost.go estimates it with
 * Kubernetes' size estimator (apiextensions-apiserver pkg/apiserver/schema/cel/compilation.go
 * sizeEstimator, model/schemas.go MaxElements) and library costs (k8s.io/apiserver/pkg/cel/
 * library/cost.go): a selection or identifier costs 1, a call 1 plus its arguments, string
 * functions a tenth of a unit per character they walk, and a comprehension its range's largest
 * size times its body. Sizes come from `maxLength`, `maxItems` and `maxProperties`, or else from
 * how many values fit in the largest request.
 */
import type { ASTNode } from "@marcbachmann/cel-js";
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";

/** The largest request body kube-apiserver takes (apiserver config.go MaxRequestSizeBytes). */
export const maxRequestSizeBytes = 3 * 1024 * 1024;
const stringTraversalCostFactor = 0.1;
const regexStringLengthCostFactor = 0.25;

const macros = new Set(["all", "exists", "exists_one", "map", "filter"]);
const traversal = new Set(["lowerAscii", "upperAscii", "trim", "split", "replace", "indexOf", "lastIndexOf"]);
const listTraversal = new Set(["isSorted", "sum", "min", "max"]);

/** minSerializedSize: the fewest JSON bytes a value of the schema takes. */
export function minSerializedSize(s: JSONSchemaProps | undefined): number {
  if (s === undefined || s["x-kubernetes-int-or-string"] === true) return 1;
  if (s.type === "string" || s.type === "array" || s.type === "object") return 2;
  if (s.type === "boolean") return 4;
  return 1;
}

/** maxCardinality: how often a value of `minSize` bytes fits in the largest request. */
export const maxCardinality = (minSize: number): number => Math.floor(maxRequestSizeBytes / (minSize + 1));

/** MaxElements: the most characters, items or entries a value of the schema has. */
function maxElements(s: JSONSchemaProps | undefined): number {
  if (s === undefined) return maxRequestSizeBytes;
  if (s.type === "string") return s.maxLength ?? maxRequestSizeBytes - 2;
  if (s.type === "array") return s.maxItems ?? Math.floor((maxRequestSizeBytes - 2) / (minSerializedSize(items(s)) + 1));
  if (s.type === "object" && typeof s.additionalProperties === "object")
    // Each entry takes at least `"":` and its value, and a comma.
    return s.maxProperties ?? Math.floor((maxRequestSizeBytes - 2) / (minSerializedSize(s.additionalProperties) + 4));
  return 1;
}

const items = (s: JSONSchemaProps): JSONSchemaProps | undefined => (s.items !== undefined && !Array.isArray(s.items) ? s.items : undefined);

/** What an expression costs and what it is: the schema it reads and its size. */
interface Estimate {
  cost: number;
  schema?: JSONSchemaProps;
  size: number;
}

type Scope = ReadonlyMap<string, JSONSchemaProps | undefined>;

const node = (v: unknown): v is ASTNode => typeof v === "object" && v !== null && "op" in v;

function sizeOfValue(v: unknown): number {
  if (typeof v === "string") return v.length;
  return 1;
}

function child(s: JSONSchemaProps | undefined, name: string | undefined): JSONSchemaProps | undefined {
  if (s === undefined) return undefined;
  if (s.type === "array") return items(s);
  if (typeof s.additionalProperties === "object") return s.additionalProperties;
  return name === undefined ? undefined : s.properties?.[name];
}

const estimate = (e: Omit<Estimate, "size">): Estimate => ({ ...e, size: maxElements(e.schema) });
const ceil = (x: number): number => Math.ceil(x);

class Estimator {
  private readonly root: JSONSchemaProps;
  constructor(root: JSONSchemaProps) {
    this.root = root;
  }

  run(n: ASTNode, scope: Scope): Estimate {
    const a = n.args as unknown;
    switch (n.op) {
      case "value":
        return { cost: 0, size: sizeOfValue(a) };
      case "id": {
        const name = a as string;
        if (scope.has(name)) return estimate({ cost: 1, schema: scope.get(name) });
        return estimate({ cost: 1, schema: name === "self" || name === "oldSelf" ? this.root : undefined });
      }
      case ".":
      case ".?": {
        const [operand, name] = a as [ASTNode, string];
        const o = this.run(operand, scope);
        return estimate({ cost: o.cost + 1, schema: child(o.schema, name) });
      }
      case "[]":
      case "[?]": {
        const [l, r] = a as [ASTNode, ASTNode];
        const lo = this.run(l, scope);
        return estimate({ cost: lo.cost + this.run(r, scope).cost + 1, schema: child(lo.schema, undefined) });
      }
      case "list": {
        const xs = (a as ASTNode[]).map((x) => this.run(x, scope));
        return { cost: xs.reduce((c, x) => c + x.cost, 0) + 1, size: xs.length };
      }
      case "map": {
        const es = (a as [ASTNode, ASTNode][]).flat().map((x) => this.run(x, scope));
        return { cost: es.reduce((c, x) => c + x.cost, 0) + 1, size: es.length / 2 };
      }
      case "&&":
      case "||":
        return { cost: this.args(a as ASTNode[], scope), size: 1 };
      case "?:": {
        const [c, t, f] = (a as ASTNode[]).map((x) => this.run(x, scope));
        return { cost: c!.cost + Math.max(t!.cost, f!.cost), size: Math.max(t!.size, f!.size) };
      }
      case "call":
        return this.call((a as [string, ASTNode[]])[0], undefined, (a as [string, ASTNode[]])[1], scope);
      case "rcall": {
        const [name, target, args] = a as [string, ASTNode, ASTNode[]];
        return this.call(name, target, args, scope);
      }
      default:
        return node(a) ? { cost: this.run(a, scope).cost + 1, size: 1 } : this.operator(n.op, a as ASTNode[], scope);
    }
  }

  private args(xs: readonly ASTNode[], scope: Scope): number {
    return xs.reduce((c, x) => c + this.run(x, scope).cost, 0);
  }

  /** Binary operators: equality, ordering and `+` walk strings and lists; `in` walks the list. */
  private operator(op: string, xs: ASTNode[], scope: Scope): Estimate {
    const [l, r] = xs.map((x) => this.run(x, scope));
    const argCost = l!.cost + r!.cost;
    if (op === "in") return { cost: argCost + r!.size, size: 1 };
    if (op === "+") {
      const size = l!.size + r!.size;
      return { cost: argCost + Math.max(1, ceil(size * stringTraversalCostFactor)), size };
    }
    if (["==", "!=", "<", "<=", ">", ">="].includes(op))
      return { cost: argCost + Math.max(1, ceil(Math.min(l!.size, r!.size) * stringTraversalCostFactor)), size: 1 };
    return { cost: argCost + 1, size: 1 };
  }

  private call(name: string, target: ASTNode | undefined, args: ASTNode[], scope: Scope): Estimate {
    if (target !== undefined && macros.has(name) && node(args[0]) && args[0].op === "id") return this.comprehension(target, args, scope);
    const t = target === undefined ? undefined : this.run(target, scope);
    const xs = args.map((x) => this.run(x, scope));
    const argCost = (t?.cost ?? 0) + xs.reduce((c, x) => c + x.cost, 0);
    const subject = t ?? xs[0];
    if (name === "has") return { cost: argCost + 1, size: 1 };
    if (name === "contains" && t !== undefined && xs[0] !== undefined)
      return { cost: argCost + ceil(t.size * stringTraversalCostFactor) * ceil(xs[0].size * stringTraversalCostFactor), size: 1 };
    if ((name === "matches" || name === "find" || name === "findAll") && subject !== undefined) {
      const regex = xs[t === undefined ? 1 : 0];
      return {
        cost: argCost + ceil(subject.size * stringTraversalCostFactor) * ceil((regex?.size ?? 1) * regexStringLengthCostFactor),
        size: 1,
      };
    }
    // checker/cost.go functionCost: a prefix or suffix test is charged by its argument, not the string it tests.
    if ((name === "startsWith" || name === "endsWith") && t !== undefined && xs[0] !== undefined)
      return { cost: argCost + ceil(xs[0].size * stringTraversalCostFactor), size: 1 };
    if (traversal.has(name) && subject !== undefined)
      return { cost: argCost + Math.max(1, ceil(subject.size * stringTraversalCostFactor)), size: subject.size };
    if (listTraversal.has(name) && subject !== undefined) return { cost: argCost + subject.size, size: 1 };
    return { cost: argCost + 1, size: 1 };
  }

  /** A macro's loop: the range, then each element's body with the accumulator's steps. */
  private comprehension(target: ASTNode, args: ASTNode[], scope: Scope): Estimate {
    const range = this.run(target, scope);
    const inner = new Map(scope);
    inner.set(args[0]!.args as string, range.schema?.type === "object" ? undefined : child(range.schema, undefined));
    const body = args.slice(1).reduce((c, x) => c + this.run(x, inner).cost, 0);
    // The loop condition and step read the accumulator (2 and 1), the result once more.
    return { cost: range.cost + range.size * (body + 3) + 1, size: range.size };
  }
}

/** The estimated worst-case cost of one evaluation of the checked expression `ast` at `schema`. */
export function estimateCost(ast: ASTNode, schema: JSONSchemaProps): number {
  return new Estimator(schema).run(ast, new Map()).cost;
}
