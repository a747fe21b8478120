/**
 * Shuffle sharding (staging/src/k8s.io/apiserver/pkg/util/shufflesharding/shufflesharding.go): a
 * hash value dealt into a hand of distinct cards from a deck, used to pick a flow's candidate queues.
 */

/** The most hash bits a Dealer may consume (MaxHashBits). */
export const maxHashBits = 60;

/** RequiredEntropyBits: how many bits of hash a hand of `handSize` from `deckSize` cards needs. */
export function requiredEntropyBits(deckSize: number, handSize: number): number {
  return Math.ceil(Math.log2(deckSize) * handSize);
}

/** Dealer (NewDealer): deals hands of `handSize` distinct cards from `deckSize`. */
export class Dealer {
  readonly deckSize: number;
  readonly handSize: number;

  constructor(deckSize: number, handSize: number) {
    if (deckSize <= 0 || handSize <= 0) throw new Error(`deckSize ${deckSize} or handSize ${handSize} is not positive integer`);
    if (handSize > deckSize) throw new Error(`handSize ${handSize} is greater than deckSize ${deckSize}`);
    if (deckSize > 1 << 26) throw new Error(`deckSize ${deckSize} is impractically large`);
    if (requiredEntropyBits(deckSize, handSize) > maxHashBits)
      throw new Error(`required entropy bits of deckSize ${deckSize} and handSize ${handSize} is greater than ${maxHashBits}`);
    this.deckSize = deckSize;
    this.handSize = handSize;
  }

  /**
   * Deal: the cards of the hand for `hashValue` (a 64-bit hash as a bigint), in order, each distinct.
   * As upstream: the i-th card is `hashValue mod (deckSize-i)`, shifted past the cards already dealt.
   */
  deal(hashValue: bigint, pick: (card: number) => void): void {
    const remainders: number[] = new Array<number>(this.handSize);
    let h = hashValue;
    for (let i = 0; i < this.handSize; i++) {
      const size = BigInt(this.deckSize - i);
      remainders[i] = Number(h % size);
      h /= size;
    }
    for (let i = 0; i < this.handSize; i++) {
      let card = remainders[i]!;
      for (let j = i; j > 0; j--) if (card >= remainders[j - 1]!) card++;
      pick(card);
    }
  }

  /** DealIntoHand: the hand as an array. */
  dealIntoHand(hashValue: bigint): number[] {
    const hand: number[] = [];
    this.deal(hashValue, (c) => hand.push(c));
    return hand;
  }
}
