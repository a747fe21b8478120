/**
 * Finds duplicate object keys in JSON text (JSON.parse silently keeps the last one), reported
 * as kube-apiserver's strict decoder reports them: `duplicate field "spec.type"`.
 */
import type { TurnBudget } from "../util/eventloop/turn-budget.ts";

/** Paths of duplicated keys, in document order; [] for invalid JSON (JSON.parse reports that). */
export function duplicateFields(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  const ws = (): void => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const str = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: string, depth: number): void => {
    if (depth > 1000) throw new Error("too deep");
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const seen = new Set<string>();
      ws();
      while (i < text.length && text[i] !== "}") {
        ws();
        const key = str();
        const p = path === "" ? key : `${path}.${key}`;
        if (seen.has(key)) out.push(p);
        seen.add(key);
        ws();
        i++; // ':'
        value(p, depth + 1);
        ws();
        if (text[i] === ",") i++;
        ws();
      }
      i++;
    } else if (c === "[") {
      i++;
      let n = 0;
      ws();
      while (i < text.length && text[i] !== "]") {
        value(`${path}[${n++}]`, depth + 1);
        ws();
        if (text[i] === ",") i++;
        ws();
      }
      i++;
    } else if (c === '"') str();
    else while (i < text.length && !",}] \t\n\r".includes(text[i]!)) i++;
  };
  try {
    value("", 0);
  } catch {
    return [];
  }
  return out;
}

/** Object members of a parsed JSON value (JSON.parse keeps one per duplicated key). */
export function countMembers(v: unknown): number {
  if (v === null || typeof v !== "object") return 0;
  let n = 0;
  if (Array.isArray(v)) {
    for (const x of v) n += countMembers(x);
    return n;
  }
  for (const k in v) n += 1 + countMembers((v as Record<string, unknown>)[k]);
  return n;
}

/** Values visited between two looks at the turn budget. */
const sliceValues = 1024;

/**
 * `countMembers`, giving the event loop a turn when `budget` says so: a near-limit body has tens
 * of thousands of members (60,000 labels), one walk of them a long step.
 */
export async function countMembersInTurns(root: unknown, budget: TurnBudget): Promise<number> {
  let n = 0;
  let visited = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (++visited % sliceValues === 0) await budget.maybeYield();
    if (v === null || typeof v !== "object") continue;
    if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
      continue;
    }
    // Own keys: a parsed value has no others, and for-in over a huge map would be one long step.
    const keys = Object.keys(v);
    n += keys.length;
    for (let i = 0; i < keys.length; i++) {
      stack.push((v as Record<string, unknown>)[keys[i]!]);
      if (i % sliceValues === sliceValues - 1) await budget.maybeYield();
    }
  }
  return n;
}
