/**
 * Compiling and running expressions with declared variables and cost limits (the behaviours of
 * k8s.io/apiserver/pkg/admission/plugin/cel/compile_test.go and filter_test.go's cost cases).
 */
import { describe, expect, it } from "vitest";
import { CELEnvironment, CELError } from "./environment.ts";
import { costLimitExceededMessage } from "./limits.ts";

const env = new CELEnvironment({ variables: { object: "dyn", oldObject: "dyn", params: "dyn" } });

function compile(expr: string) {
  const r = env.compile(expr);
  if (r.error) throw r.error;
  return r.program;
}

describe("compile", () => {
  it.each([
    { expr: "x == 1", err: "compilation failed: ERROR: <input>:1:1: undeclared reference to 'x' (in container '')\n | x == 1\n | ^" },
    { expr: "object.spec +", err: /^compilation failed: ERROR: <input>:1:\d+: Syntax error: / },
    { expr: "1 + 'a'", err: /found no matching overload for '_\+_' applied to '\(int, string\)'/ },
    { expr: " ", err: "compilation failed: expression is empty" },
    // checker.go checkCall: a function no library declares is an undeclared reference, at its `(`.
    {
      expr: "nosuch(1) == 1",
      err: "compilation failed: ERROR: <input>:1:7: undeclared reference to 'nosuch' (in container '')\n | nosuch(1) == 1\n | ......^",
    },
    {
      expr: "object.spec.nosuch('a')",
      err: "compilation failed: ERROR: <input>:1:19: undeclared reference to 'nosuch' (in container '')\n | object.spec.nosuch('a')\n | ..................^",
    },
  ])("refuses $expr", ({ expr, err }) => {
    const r = env.compile(expr);
    expect(r.error).toBeInstanceOf(CELError);
    if (typeof err === "string") expect(r.error?.detail).toBe(err);
    else expect(r.error?.detail).toMatch(err);
  });

  it("types the output of an expression", () => {
    expect(compile("object.spec.type == 'NodePort'").outputType).toBe("bool");
    expect(compile("'name: ' + object.metadata.name").outputType).toBe("string");
  });
});

describe("evaluate", () => {
  const svc = { metadata: { name: "a" }, spec: { type: "NodePort", ports: [{ port: 80 }, { port: 443, nodePort: 30000 }] } };

  it("reads JSON integers as CEL ints", () => {
    expect(compile("object.spec.ports[1].nodePort == 30000").evaluate({ object: svc }).value).toBe(true);
    expect(compile("object.spec.ports.map(p, p.port).sum()").evaluate({ object: svc }).value).toBe(523n);
  });

  it("reports a missing field as a runtime error", () => {
    expect(() => compile("object.spec.clusterIP == ''").evaluate({ object: svc })).toThrow(CELError);
    // cel-go's wording, which kube-apiserver's `resulted in error:` messages carry.
    expect(() => compile("object.spec.clusterIP == ''").evaluate({ object: svc })).toThrow("no such key: clusterIP");
    expect(compile("has(object.spec.clusterIP)").evaluate({ object: svc }).value).toBe(false);
  });

  it("charges each step, and each element a comprehension walks", () => {
    const p = compile("object.items.all(i, i > 0)");
    const small = p.evaluate({ object: { items: [1] } }).cost;
    const large = p.evaluate({ object: { items: Array.from({ length: 100 }, () => 1) } }).cost;
    expect(large - small).toBeGreaterThanOrEqual(99 * 2);
  });

  it("cancels an evaluation past its per-call limit", () => {
    const p = compile("object.items.all(i, object.items.all(j, i <= j || i > j))");
    const items = Array.from({ length: 100 }, (_, i) => i);
    expect(p.evaluate({ object: { items } }).cost).toBeGreaterThan(10_000);
    expect(() => p.evaluate({ object: { items } }, { perCallLimit: 10_000 })).toThrow(costLimitExceededMessage);
  });

  it("draws every evaluation's cost from a shared budget until it runs out", () => {
    const p = compile("object.items.all(i, i >= 0)");
    const items = Array.from({ length: 50 }, (_, i) => i);
    const one = p.evaluate({ object: { items } }).cost;
    const budget = { remaining: one * 2 + one / 2 };
    p.evaluate({ object: { items } }, { budget });
    p.evaluate({ object: { items } }, { budget });
    expect(budget.remaining).toBe(one / 2);
    expect(() => p.evaluate({ object: { items } }, { budget })).toThrow(costLimitExceededMessage);
    expect(budget.remaining).toBe(0);
  });

  it("charges library functions for what they walk", () => {
    const p = compile("params.s.find('a+') != ''");
    const short = p.evaluate({ params: { s: "a" } }).cost;
    const long = p.evaluate({ params: { s: "b".repeat(10_000) + "a" } }).cost;
    expect(long - short).toBeGreaterThanOrEqual(1000);
  });
});
