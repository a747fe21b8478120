/**
 * TestConcAlloc (util/flowcontrol/conc_alloc_test.go): randomly generated problems bound from below,
 * from above, or by neither, plus classes with a zero target; every answer sums to the required
 * total and gives each class its bound or exactly fairProp x target.
 */
import { describe, expect, it } from "vitest";
import { computeConcurrencyAllocation, minTarget, type AllocProblemItem } from "./conc-alloc.ts";

const fpSlack = 1e-10;

/** A seeded generator (mulberry32), so that a failure reproduces. */
function seeded(seed: number): { float(): number; int(n: number): number } {
  let a = seed >>> 0;
  const float = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { float, int: (n) => Math.floor(float() * n) };
}

function relDiff(a: number, b: number): number {
  const den = Math.max(Math.abs(a), Math.abs(b));
  return den === 0 ? 0 : Math.abs(a - b) / den;
}

/** partition64: n floats that sum to x. */
function partition(r: ReturnType<typeof seeded>, n: number, x: number, consume: (j: number, v: number) => void): void {
  if (n <= 0) return;
  const divs = Array.from({ length: n - 1 }, () => r.float()).sort((a, b) => a - b);
  let last = 0;
  divs.forEach((d, j) => {
    consume(j, (d - last) * x);
    last = d;
  });
  consume(n - 1, (1 - last) * x);
}

function oneProblem(r: ReturnType<typeof seeded>): { requiredSum: number; classes: AllocProblemItem[]; lowSum: number; highSum: number } {
  let probLen = [0, 1, 2, 3, 4, 6, 9][r.int(7)]!;
  const classes: AllocProblemItem[] = Array.from({ length: probLen }, () => ({ target: 0, lowerBound: 0, upperBound: 0 }));
  let lowSum = 0;
  let highSum = 0;
  let requiredSum = 0;
  const note = (c: AllocProblemItem): void => {
    lowSum += c.lowerBound;
    highSum += c.upperBound;
  };
  if (probLen > 0) {
    const style = r.int(20);
    if (style === 0) {
      requiredSum = r.int(probLen * 3);
      partition(r, probLen, requiredSum, (j, x) => {
        classes[j] = { lowerBound: x, target: x + 2 * r.float(), upperBound: x + 3 * r.float() };
        note(classes[j]);
      });
    } else if (style === 1) {
      requiredSum = r.int(probLen * 3) + 1;
      partition(r, probLen, requiredSum, (j, x) => {
        const lowerBound = x * Math.max(0, 1.25 * r.float() - 1);
        classes[j] = { upperBound: x, lowerBound, target: lowerBound + r.float() };
        note(classes[j]);
      });
    } else {
      for (let j = 0; j < probLen; j++) {
        const x = Math.max(0, r.float() * 5 - 1);
        classes[j] = { lowerBound: x, target: x + 2 * r.float(), upperBound: x + 3 * r.float() };
        note(classes[j]!);
      }
      requiredSum = Math.round(lowSum + (highSum - lowSum) * r.float());
    }
  }
  while (r.float() < 0.25) {
    // A class with a target of zero.
    const c = { target: 0, lowerBound: 0, upperBound: r.float() + 0.00001 };
    classes.push(c);
    highSum += c.upperBound;
    if (probLen > 1) {
      const m = r.int(probLen);
      [classes[m], classes[probLen]] = [classes[probLen]!, classes[m]!];
    }
    probLen = classes.length;
  }
  return { requiredSum, classes, lowSum, highSum };
}

describe("computeConcurrencyAllocation", () => {
  it("solves 10000 random problems (TestConcAlloc)", () => {
    const r = seeded(1234567890);
    let solved = 0;
    for (let i = 0; i < 10000; i++) {
      const { requiredSum, classes, lowSum, highSum } = oneProblem(r);
      const expectErr = lowSum - requiredSum > fpSlack || requiredSum - highSum > fpSlack;
      if (expectErr) {
        expect(() => computeConcurrencyAllocation(requiredSum, classes)).toThrow();
        continue;
      }
      const { allocs, fairProp } = computeConcurrencyAllocation(requiredSum, classes);
      const sum = allocs.reduce((s, a) => s + a, 0);
      expect(relDiff(requiredSum, sum), `sum of ${JSON.stringify({ requiredSum, classes })}`).toBeLessThanOrEqual(fpSlack);
      classes.forEach((item, idx) => {
        const alloc = fairProp * Math.max(item.target, minTarget);
        if (alloc <= item.lowerBound) expect(allocs[idx]).toBe(item.lowerBound);
        else if (alloc >= item.upperBound) expect(allocs[idx]).toBe(item.upperBound);
        else expect(relDiff(alloc, allocs[idx]!)).toBeLessThanOrEqual(fpSlack);
      });
      solved++;
    }
    expect(solved).toBeGreaterThan(9000);
  });

  it.each<[string, number, AllocProblemItem[], number[]]>([
    ["proportional to targets", 30, [t(10, 0, 100), t(20, 0, 100)], [10, 20]],
    ["scaled up", 60, [t(10, 0, 100), t(20, 0, 100)], [20, 40]],
    ["an upper bound clips", 60, [t(10, 0, 15), t(20, 0, 100)], [15, 45]],
    ["a lower bound holds", 30, [t(20, 20, 100), t(40, 0, 100)], [20, 10]],
    ["everybody at the lower bound", 30, [t(10, 10, 50), t(20, 20, 50)], [10, 20]],
    ["everybody at the upper bound", 30, [t(50, 0, 10), t(50, 0, 20)], [10, 20]],
    ["nothing to share", 0, [t(5, 0, 10)], [0]],
  ])("%s", (_name, requiredSum, classes, want) => {
    const { allocs } = computeConcurrencyAllocation(requiredSum, classes);
    allocs.forEach((a, i) => expect(a).toBeCloseTo(want[i]!, 9));
  });

  it.each<[string, number, AllocProblemItem[], string]>([
    ["negative sum", -1, [], "negative sums are not supported"],
    ["negative lower bound", 1, [t(1, -1, 2)], "lower bound 0 is -1 but negative lower bounds are not allowed"],
    ["target below lower bound", 1, [t(1, 2, 3)], "target 0 is 1, which is below its lower bound of 2"],
    ["upper below lower", 1, [t(3, 2, 1)], "upper bound 0 is 1 but should not be less than the lower bound 2"],
    ["lower bounds too high", 1, [t(2, 2, 3)], "lower bounds sum to 2, which is higher than the required sum of 1"],
    ["upper bounds too low", 5, [t(2, 0, 3)], "upper bounds sum to 3, which is lower than the required sum of 5"],
  ])("refuses %s", (_name, requiredSum, classes, message) => {
    expect(() => computeConcurrencyAllocation(requiredSum, classes)).toThrow(message);
  });
});

function t(target: number, lowerBound: number, upperBound: number): AllocProblemItem {
  return { target, lowerBound, upperBound };
}
