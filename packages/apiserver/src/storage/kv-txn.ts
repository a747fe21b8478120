/**
 * Multi-key transactions (all-or-nothing), as allocation needs them: create a Service and its
 * IPAddress objects together, or update a bitmap snapshot only if nobody else did. Every op becomes
 * a compare on the key's mod revision; a compare that fails only because an op without an explicit
 * expectation raced another writer is retried, anything else is reported.
 */
import { StatusError } from "@servicenet/api/errors";
import { atRevision, decode, encode, storedCopy, withCreateMeta } from "./codec.ts";
import { keyExists, keyNotFound, staleObject } from "./errors.ts";
import type { KubeObject, TxnOp, TxnResult } from "./interfaces.ts";
import type { KVCompare, KVEngine, KVWrite, RawKV } from "./kv.ts";

const maxAttempts = 1000;

/** Runs `ops` atomically against `engine` (keys get `prefix`). */
export async function runTxn(engine: KVEngine, prefix: string, ops: readonly TxnOp[]): Promise<TxnResult> {
  const seen = new Set<string>();
  for (const op of ops) {
    if (seen.has(op.key)) throw StatusError.badRequest(`duplicate key in transaction: ${op.key}`);
    seen.add(op.key);
  }
  if (ops.length === 0) return { revision: await engine.currentRevision(), objects: [] };
  const toStore = ops.map((op) => (op.type === "create" ? withCreateMeta(op.obj) : op.type === "update" ? op.obj : null));
  const values = toStore.map((obj) => (obj ? encode(obj) : ""));
  // The results, copied now: the ops' objects may change while the transaction is in flight.
  const stored = toStore.map((obj, i) => (obj ? storedCopy(obj, values[i]!) : null));
  // An op that states what it expects needs no read first: the expectation is its compare, and a
  // failed compare hands back the key's current state for check() to name the error (or retry).
  const guessed = ops.map(expectedModRevision);
  let current: (RawKV | null)[] | null = null;
  if (guessed.includes(undefined))
    current = await Promise.all(ops.map((op, i) => (guessed[i] === undefined ? engine.get(prefix + op.key) : Promise.resolve(null))));
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const compares: KVCompare[] = [];
    const writes: KVWrite[] = [];
    ops.forEach((op, i) => {
      const cur = current?.[i] ?? null;
      let modRevision = guessed[i];
      if (attempt > 0 || modRevision === undefined) {
        check(op, cur);
        modRevision = cur?.modRevision ?? 0;
      }
      compares.push({ key: prefix + op.key, modRevision });
      writes.push(
        op.type === "delete"
          ? { type: "delete", key: prefix + op.key }
          : { type: "put", key: prefix + op.key, value: values[i]!, decoded: stored[i]! },
      );
    });
    const res = await engine.txn(compares, writes);
    if (res.succeeded) {
      const objects = ops.map((op, i): KubeObject => {
        const cur = current?.[i];
        if (op.type === "delete") return decode(cur!.value, cur!.modRevision);
        return atRevision(stored[i]!, res.revisions[i]!);
      });
      return { revision: Math.max(...res.revisions), objects };
    }
    current = res.current;
  }
  throw StatusError.internal("too many conflicts in transaction");
}

/**
 * The mod revision `op` can be compared against without reading the key: 0 for a create, the
 * stated revision for an update. Deletes are always read (their result is the deleted object).
 */
function expectedModRevision(op: TxnOp): number | undefined {
  if (op.type === "create") return 0;
  if (op.type !== "update") return undefined;
  const rv = op.expectedRevision ?? op.obj.metadata?.resourceVersion;
  if (rv === undefined || rv === "") return undefined;
  const n = Number(rv);
  // A malformed expectation takes the read path, where check() reports it as a conflict.
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** Throws the error an op deserves against the current state of its key. */
function check(op: TxnOp, cur: RawKV | null): void {
  if (op.type === "create") {
    if (cur) throw keyExists(op.key);
    return;
  }
  if (!cur) throw keyNotFound(op.key);
  // An update's object resourceVersion is its expectation unless one is given explicitly.
  const rv = op.type === "update" ? op.obj.metadata?.resourceVersion : undefined;
  const expected = op.expectedRevision ?? (rv !== undefined && rv !== "" ? rv : undefined);
  if (expected !== undefined && String(expected) !== String(cur.modRevision)) throw staleObject(op.key);
}
