/**
 * The shape of a Kubernetes CEL library (k8s.io/apiserver/pkg/cel/library: each one a cel.Lib with a
 * LibraryName and its declarations), and the runtime cost hook its functions charge through.
 */
import type { Environment } from "@marcbachmann/cel-js";
import { chargeCost } from "../cost.ts";

/** A named set of declarations added to an environment. */
export interface Library {
  /** upstream's LibraryName(), e.g. "kubernetes.lists". */
  readonly name: string;
  /** Declares the library's types and functions. */
  register(env: Environment): void;
}

/** cel-go's common.StringTraversalCostFactor: one cost unit per ten characters walked. */
export const stringTraversalCostFactor = 0.1;

/** cel-go's common.RegexStringLengthCostFactor: a regex costs a quarter unit per character of its pattern. */
export const regexStringLengthCostFactor = 0.25;

/** Charges the cost of walking a string of `size` characters (library/cost.go's string functions). */
export function chargeStringTraversal(size: number): void {
  chargeCost(Math.ceil(size * stringTraversalCostFactor));
}

export { chargeCost };
