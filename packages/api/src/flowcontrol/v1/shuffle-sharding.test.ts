/** Upstream staging/src/k8s.io/apiserver/pkg/util/shufflesharding/shufflesharding_test.go. */
import { describe, expect, it } from "vitest";
import { Dealer, requiredEntropyBits } from "./shuffle-sharding.ts";

describe("TestRequiredEntropyBits", () => {
  it.each([
    [1024, 6, 60],
    [512, 8, 72],
    [1024, 12, 120],
    [512, 10, 90],
    [128, 12, 84],
    [256, 10, 80],
    [256, 3, 24],
    [4, 1, 2],
    [2, 1, 1],
  ])("deckSize %i handSize %i", (deck, hand, want) => {
    expect(requiredEntropyBits(deck, hand)).toBe(want);
  });
});

describe("TestNewDealer", () => {
  it.each<[number, number, string]>([
    [-1, -1, "deckSize -1 or handSize -1 is not positive integer"],
    [8, 9, "handSize 9 is greater than deckSize 8"],
    [1 << 27, 2, `deckSize ${1 << 27} is impractically large`],
    [1 << 26, 4, `required entropy bits of deckSize ${1 << 26} and handSize 4 is greater than 60`],
  ])("deckSize %i handSize %i", (deck, hand, err) => {
    expect(() => new Dealer(deck, hand)).toThrow(err);
  });
});

describe("TestCardDuplication", () => {
  it("every hand holds distinct cards of the deck", () => {
    for (const [deck, hand] of [
      [512, 6],
      [64, 6],
      [16, 4],
      [7, 7],
    ] as const) {
      const d = new Dealer(deck, hand);
      for (let h = 0n; h < 300n; h++) {
        const cards = d.dealIntoHand((h * 0x9e3779b97f4a7c15n) % (1n << 64n));
        expect(new Set(cards).size).toBe(hand);
        expect(cards.every((c) => c >= 0 && c < deck)).toBe(true);
      }
    }
  });

  it("deals the remainders shifted past earlier cards", () => {
    expect(new Dealer(5, 3).dealIntoHand(0n)).toEqual([0, 1, 2]);
    expect(new Dealer(5, 3).dealIntoHand(7n)).toEqual([2, 1, 0]);
  });
});
