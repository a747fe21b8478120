/**
 * Allocation transactions (upstream pkg/registry/core/service/storage/transaction.go):
 * something to finalise when the larger request succeeds (commit) or to undo
 * when it fails (revert). Neither may fail: implementations handle their own
 * errors, because by then the caller can no longer change the outcome.
 */

/** A pending set of changes to finalise or abandon. */
export interface Transaction {
  /** Finalises pending changes (e.g. performs deferred releases). */
  commit(): Promise<void>;
  /** Abandons or undoes the changes (e.g. releases what was allocated). */
  revert(): Promise<void>;
}

/** The callbacks of a callbackTransaction; either may be omitted. */
export interface TransactionCallbacks {
  commit?: () => void | Promise<void>;
  revert?: () => void | Promise<void>;
}

/** A transaction that calls arbitrary functions (upstream `callbackTransaction`). */
export function callbackTransaction(cb: TransactionCallbacks): Transaction {
  return {
    async commit() {
      if (cb.commit) await cb.commit();
    },
    async revert() {
      if (cb.revert) await cb.revert();
    },
  };
}

/** A collection of transactions committed or reverted in order (upstream `metaTransaction`). */
export class MetaTransaction implements Transaction {
  readonly transactions: Transaction[];

  constructor(transactions: Transaction[] = []) {
    this.transactions = transactions;
  }

  /** Appends a transaction (upstream `append(result, txn)`). */
  add(txn: Transaction): void {
    this.transactions.push(txn);
  }

  async commit(): Promise<void> {
    for (const t of this.transactions) await t.commit();
  }

  async revert(): Promise<void> {
    for (const t of this.transactions) await t.revert();
  }
}

/** Builds a MetaTransaction from `txns`. */
export function metaTransaction(...txns: Transaction[]): MetaTransaction {
  return new MetaTransaction(txns);
}
