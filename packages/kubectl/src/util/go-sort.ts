/**
 * Go's sort.Sort (pattern-defeating quicksort, Go 1.19+), ported operation for
 * operation from go/src/sort/zsortinterface.go and sort.go, so that elements
 * that compare equal end up exactly where Go leaves them. kubectl sorts
 * describe events with sort.Sort (not sort.Stable), so ties are ordered by
 * this algorithm, not by input order.
 */

/** sort.Interface over an array, with a Less on indexes. */
interface Data {
  less(i: number, j: number): boolean;
  swap(i: number, j: number): void;
}

const unknownHint = 0;
const increasingHint = 1;
const decreasingHint = 2;
const mask64 = (1n << 64n) - 1n;

/** math/bits.Len for a non-negative int. */
function bitsLen(n: number): number {
  return n === 0 ? 0 : Math.floor(Math.log2(n)) + 1;
}

/** Sorts `items` in place with Go's sort.Sort and the given Less; returns it. */
export function goSort<T>(items: T[], less: (a: T, b: T) => boolean): T[] {
  const data: Data = {
    less: (i, j) => less(items[i] as T, items[j] as T),
    swap: (i, j) => {
      const t = items[i] as T;
      items[i] = items[j] as T;
      items[j] = t;
    },
  };
  const n = items.length;
  if (n <= 1) return items;
  pdqsort(data, 0, n, bitsLen(n));
  return items;
}

function insertionSort(data: Data, a: number, b: number): void {
  for (let i = a + 1; i < b; i++) {
    for (let j = i; j > a && data.less(j, j - 1); j--) data.swap(j, j - 1);
  }
}

function siftDown(data: Data, lo: number, hi: number, first: number): void {
  let root = lo;
  for (;;) {
    let child = 2 * root + 1;
    if (child >= hi) break;
    if (child + 1 < hi && data.less(first + child, first + child + 1)) child++;
    if (!data.less(first + root, first + child)) return;
    data.swap(first + root, first + child);
    root = child;
  }
}

function heapSort(data: Data, a: number, b: number): void {
  const first = a;
  const lo = 0;
  const hi = b - a;
  for (let i = Math.trunc((hi - 1) / 2); i >= 0; i--) siftDown(data, i, hi, first);
  for (let i = hi - 1; i >= 0; i--) {
    data.swap(first, first + i);
    siftDown(data, lo, i, first);
  }
}

function pdqsort(data: Data, a: number, b: number, limit: number): void {
  const maxInsertion = 12;
  let wasBalanced = true;
  let wasPartitioned = true;
  for (;;) {
    const length = b - a;
    if (length <= maxInsertion) {
      insertionSort(data, a, b);
      return;
    }
    if (limit === 0) {
      heapSort(data, a, b);
      return;
    }
    if (!wasBalanced) {
      breakPatterns(data, a, b);
      limit--;
    }
    let [pivot, hint] = choosePivot(data, a, b);
    if (hint === decreasingHint) {
      reverseRange(data, a, b);
      pivot = b - 1 - (pivot - a);
      hint = increasingHint;
    }
    if (wasBalanced && wasPartitioned && hint === increasingHint) {
      if (partialInsertionSort(data, a, b)) return;
    }
    if (a > 0 && !data.less(a - 1, pivot)) {
      a = partitionEqual(data, a, b, pivot);
      continue;
    }
    const [mid, alreadyPartitioned] = partition(data, a, b, pivot);
    wasPartitioned = alreadyPartitioned;
    const leftLen = mid - a;
    const rightLen = b - mid;
    const balanceThreshold = Math.trunc(length / 8);
    if (leftLen < rightLen) {
      wasBalanced = leftLen >= balanceThreshold;
      pdqsort(data, a, mid, limit);
      a = mid + 1;
    } else {
      wasBalanced = rightLen >= balanceThreshold;
      pdqsort(data, mid + 1, b, limit);
      b = mid;
    }
  }
}

function partition(data: Data, a: number, b: number, pivot: number): [number, boolean] {
  data.swap(a, pivot);
  let i = a + 1;
  let j = b - 1;
  while (i <= j && data.less(i, a)) i++;
  while (i <= j && !data.less(j, a)) j--;
  if (i > j) {
    data.swap(j, a);
    return [j, true];
  }
  data.swap(i, j);
  i++;
  j--;
  for (;;) {
    while (i <= j && data.less(i, a)) i++;
    while (i <= j && !data.less(j, a)) j--;
    if (i > j) break;
    data.swap(i, j);
    i++;
    j--;
  }
  data.swap(j, a);
  return [j, false];
}

function partitionEqual(data: Data, a: number, b: number, pivot: number): number {
  data.swap(a, pivot);
  let i = a + 1;
  let j = b - 1;
  for (;;) {
    while (i <= j && !data.less(a, i)) i++;
    while (i <= j && data.less(a, j)) j--;
    if (i > j) break;
    data.swap(i, j);
    i++;
    j--;
  }
  return i;
}

function partialInsertionSort(data: Data, a: number, b: number): boolean {
  const maxSteps = 5;
  const shortestShifting = 50;
  let i = a + 1;
  for (let step = 0; step < maxSteps; step++) {
    while (i < b && !data.less(i, i - 1)) i++;
    if (i === b) return true;
    if (b - a < shortestShifting) return false;
    data.swap(i, i - 1);
    // Shift the smaller one to the left (Go's loop runs down to index 1, not a+1).
    if (i - a >= 2) {
      for (let j = i - 1; j >= 1; j--) {
        if (!data.less(j, j - 1)) break;
        data.swap(j, j - 1);
      }
    }
    if (b - i >= 2) {
      for (let j = i + 1; j < b; j++) {
        if (!data.less(j, j - 1)) break;
        data.swap(j, j - 1);
      }
    }
  }
  return false;
}

function breakPatterns(data: Data, a: number, b: number): void {
  const length = b - a;
  if (length < 8) return;
  // sort.go's xorshift (13, 7, 17) on a uint64 seeded with the length.
  let random = BigInt(length);
  const next = (): bigint => {
    random ^= (random << 13n) & mask64;
    random ^= random >> 7n;
    random ^= (random << 17n) & mask64;
    return random;
  };
  const modulus = 2 ** bitsLen(length);
  for (let idx = a + Math.trunc(length / 4) * 2 - 1; idx <= a + Math.trunc(length / 4) * 2 + 1; idx++) {
    let other = Number(next() & BigInt(modulus - 1));
    if (other >= length) other -= length;
    data.swap(idx, a + other);
  }
}

function choosePivot(data: Data, a: number, b: number): [number, number] {
  const shortestNinther = 50;
  const maxSwaps = 4 * 3;
  const l = b - a;
  const swaps = { n: 0 };
  let i = a + Math.trunc(l / 4) * 1;
  let j = a + Math.trunc(l / 4) * 2;
  let k = a + Math.trunc(l / 4) * 3;
  if (l >= 8) {
    if (l >= shortestNinther) {
      i = median(data, i - 1, i, i + 1, swaps);
      j = median(data, j - 1, j, j + 1, swaps);
      k = median(data, k - 1, k, k + 1, swaps);
    }
    j = median(data, i, j, k, swaps);
  }
  if (swaps.n === 0) return [j, increasingHint];
  if (swaps.n === maxSwaps) return [j, decreasingHint];
  return [j, unknownHint];
}

function order2(data: Data, a: number, b: number, swaps: { n: number }): [number, number] {
  if (data.less(b, a)) {
    swaps.n++;
    return [b, a];
  }
  return [a, b];
}

function median(data: Data, a: number, b: number, c: number, swaps: { n: number }): number {
  [a, b] = order2(data, a, b, swaps);
  [b, c] = order2(data, b, c, swaps);
  [a, b] = order2(data, a, b, swaps);
  void c;
  return b;
}

function reverseRange(data: Data, a: number, b: number): void {
  let i = a;
  let j = b - 1;
  while (i < j) {
    data.swap(i, j);
    i++;
    j--;
  }
}
