/**
 * etcd's per-request size limit, the same on every engine. etcd refuses a proposal larger than
 * `--max-request-bytes` (default 1.5 MiB, embed.DefaultMaxRequestBytes; the check is
 * server/etcdserver/v3_server.go processInternalRaftRequestOnce) with rpctypes.ErrRequestTooLarge,
 * and kube-apiserver passes that error up unchanged (staging/src/k8s.io/apiserver/pkg/storage/etcd3
 * store.go Create and GuaranteedUpdate return it as is; responsewriters/status.go
 * ErrorToAPIStatus turns an error that is no Status into a 500 with an empty reason and the error's
 * own text): `Error from server: etcdserver: request is too large`. So an object of 1.2 MB of
 * labels, whose managed fields double it, is refused by a real cluster though its body passed the
 * 3 MiB `MaxRequestBodyBytes`.
 */
import { StatusError } from "@servicenet/api/errors";
import type { KVCompare, KVWrite } from "./kv.ts";

/** etcd's default `--max-request-bytes`: 1.5 MiB. */
export const maxRequestBytes = 1.5 * 1024 * 1024;

/** rpctypes.ErrRequestTooLarge's text. */
export const requestTooLargeMsg = "etcdserver: request is too large";

/** The error kube-apiserver answers for a write etcd refused as too large: 500, no reason. */
export function requestTooLarge(): StatusError {
  return StatusError.unknown(requestTooLargeMsg);
}

/**
 * The size of a transaction as etcd counts it, without its protobuf framing (tens of bytes): the
 * compared keys and the written keys and values, in UTF-8.
 */
export function requestBytes(compares: readonly KVCompare[], writes: readonly KVWrite[]): number {
  let n = 0;
  for (const c of compares) n += Buffer.byteLength(c.key);
  for (const w of writes) n += Buffer.byteLength(w.key) + (w.type === "put" ? Buffer.byteLength(w.value) : 0);
  return n;
}

/**
 * `requestTooLarge()` when the transaction is over `limit`, else undefined. Every engine checks
 * before it writes; the etcd engine too, so that the refusal never reaches (and never trips) its
 * client's circuit breaker. (Above 2 MiB a real etcd answers with gRPC's receive limit instead,
 * `grpc: received message larger than max`; here every size over the limit gets this answer.)
 */
export function checkRequestSize(
  compares: readonly KVCompare[],
  writes: readonly KVWrite[],
  limit = maxRequestBytes,
): StatusError | undefined {
  // A cheap bound first: a string's UTF-8 length is at most three times its length in UTF-16 units.
  let units = 0;
  for (const c of compares) units += c.key.length;
  for (const w of writes) units += w.key.length + (w.type === "put" ? w.value.length : 0);
  if (units * 3 <= limit) return undefined;
  return requestBytes(compares, writes) > limit ? requestTooLarge() : undefined;
}

/** True for the etcd client's error for a request over etcd's own limit. */
export function isRequestTooLarge(e: unknown): boolean {
  return e instanceof Error && e.message.endsWith(requestTooLargeMsg);
}
