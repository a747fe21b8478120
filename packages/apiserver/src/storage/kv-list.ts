/**
 * GetList over a KVEngine (upstream etcd3 store.GetList): resourceVersion / resourceVersionMatch
 * rules, limit + continue with the revision pinned by the first page, and predicate filtering that
 * keeps reading (doubling the page up to 10000) until `limit` matching items are found.
 */
import { StatusError } from "@servicenet/api/errors";
import { decodeContinue, encodeContinue } from "./continue-token.ts";
import { decodedCacheOf } from "./decoded-cache.ts";
import { interpretListError, parseResourceVersion, tooLargeResourceVersion } from "./errors.ts";
import { waitUntilFresh } from "./fresh.ts";
import type { KubeObject, ListOptions, ListResult } from "./interfaces.ts";
import { prefixEnd, type KVEngine } from "./kv.ts";
import { rememberRemaining, remainingAt } from "./remaining-count.ts";
import { TurnBudget } from "../util/eventloop/turn-budget.ts";

const maxPage = 10_000;

/**
 * A list without `limit` still reads the engine a page at a time, at the revision of its first
 * page, giving the event loop a turn between pages and whenever decoding has spent its budget: one read and decode of
 * 5,000 objects held every other request for tens of milliseconds (etcd answers such a range in
 * one response, but off the caller's thread).
 */
export const unlimitedListPage = 250;

/** Where a list reads: a fixed revision, or latest with an optional not-older-than floor. */
interface ReadPoint {
  revision: number;
  minimum: number;
  fromContinue: boolean;
  startKey: string;
}

/** Applies upstream's list resourceVersion semantics (k8s.io/apiserver/pkg/storage/etcd3/store.go GetList, resourceVersionMatch). */
export function resolveReadPoint(prefix: string, opts: ListOptions): ReadPoint {
  const rv = opts.resourceVersion ?? "";
  const match = opts.resourceVersionMatch ?? "";
  if (opts.continue) {
    if (rv !== "" && rv !== "0") throw StatusError.badRequest("specifying resource version is not allowed when using continue");
    const tok = decodeContinue(opts.continue, prefix);
    return { revision: tok.revision === -1 ? 0 : tok.revision, minimum: 0, fromContinue: true, startKey: tok.startKey };
  }
  if (match !== "" && rv === "") throw StatusError.badRequest("resourceVersionMatch is forbidden unless resourceVersion is provided");
  if (match !== "" && match !== "Exact" && match !== "NotOlderThan")
    throw StatusError.badRequest(`unsupported resourceVersionMatch: ${JSON.stringify(match)}`);
  const n = parseResourceVersion(rv);
  if (match === "Exact" && n === 0) throw StatusError.badRequest(`resourceVersionMatch "Exact" is forbidden for resourceVersion "0"`);
  const exact = match === "Exact" || (match === "" && n > 0 && (opts.limit ?? 0) > 0);
  return exact
    ? { revision: n, minimum: 0, fromContinue: false, startKey: prefix }
    : { revision: 0, minimum: n, fromContinue: false, startKey: prefix };
}

/** Lists `prefix` (a directory key ending in "/"). */
export async function listKV(engine: KVEngine, physPrefix: string, logicalPrefix: string, opts: ListOptions): Promise<ListResult> {
  const point = resolveReadPoint(logicalPrefix, opts);
  const listPrefix = physPrefix + logicalPrefix;
  const start = physPrefix + point.startKey;
  if (point.revision > 0) {
    const current = await engine.currentRevision();
    if (point.revision > current) throw tooLargeResourceVersion(point.revision, current);
  }
  // Not older than `minimum` (NotOlderThan, or a legacy resourceVersion without limit): wait for
  // it as upstream's watch cache does (waitUntilFreshAndBlock) before reading.
  if (point.minimum > 0) await waitUntilFresh(engine, point.minimum);
  try {
    return await readList(engine, listPrefix, start, point, opts);
  } catch (e) {
    // Every read of the page (the ranges and the remaining-item count) is at the pinned revision,
    // so a compaction under any of them is the same 410 (upstream etcd3 store.go GetList).
    throw interpretListError(e, point.fromContinue ? { listPrefix, continueKey: start } : undefined);
  }
}

/** The page's reads: ranges (growing while a predicate drops items), then the remaining count. */
async function readList(engine: KVEngine, listPrefix: string, start: string, point: ReadPoint, opts: ListOptions): Promise<ListResult> {
  const end = prefixEnd(listPrefix);
  const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
  const predicate = opts.predicate;
  let revision = point.revision;
  const items: KubeObject[] = [];
  let cursor = start;
  let page = limit > 0 ? limit : unlimitedListPage;
  let resumeKey: string | undefined;
  const budget = new TurnBudget();
  const decoded = decodedCacheOf(engine);
  for (;;) {
    const res = await engine.range(cursor, end, { revision, limit: page });
    revision = res.revision;
    let full = false;
    let i = 0;
    for (; i < res.kvs.length && !full; i++) {
      const kv = res.kvs[i]!;
      const obj = opts.readOnly ? decoded.shared(kv) : decoded.decode(kv);
      if (!predicate || predicate(obj)) items.push(obj);
      full = limit > 0 && items.length === limit;
      if (budget.due()) await budget.yield();
    }
    const last = res.kvs[i - 1];
    const more = i < res.kvs.length || res.more;
    if (full && more && last) resumeKey = last.key + "\0";
    if (full || !more || !last) break;
    cursor = last.key + "\0";
    // A predicate dropped items; read bigger pages, as upstream does.
    if (predicate && limit > 0) page = Math.min(page * 2, maxPage);
    await budget.yield();
  }
  if (point.minimum > revision) throw tooLargeResourceVersion(point.minimum, revision);
  const result: ListResult = { items, resourceVersion: String(revision) };
  if (resumeKey !== undefined) {
    result.continue = encodeContinue(listPrefix, resumeKey, revision);
    if (!predicate) result.remainingItemCount = await remaining(engine, start, resumeKey, end, revision, items.length);
  }
  return result;
}

/**
 * Keys left after this page: what remained at its start minus what it returned (a page without a
 * predicate returns every live key between its start and its resume key), or a count.
 */
async function remaining(
  engine: KVEngine,
  start: string,
  resumeKey: string,
  end: string,
  revision: number,
  taken: number,
): Promise<number> {
  const atStart = await remainingAt(engine, start, end, revision);
  const left = atStart >= taken ? atStart - taken : await engine.count(resumeKey, end, revision);
  rememberRemaining(engine, start, resumeKey, end, revision, left);
  return left;
}
