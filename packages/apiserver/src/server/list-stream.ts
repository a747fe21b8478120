/**
 * Lists written as upstream's streaming collection encoder writes them
 * (staging/src/k8s.io/apimachinery/pkg/runtime/serializer/json/collections.go,
 * streamEncodeCollections; StreamingCollectionsEncodingToJSON, on in 1.33): the list's fields, then
 * each item encoded on its own, so a 5,000-item LIST is never one string. Here it is also what keeps
 * the event loop free: the items are presented and encoded a batch at a time, each batch is written,
 * and the loop gets a turn whenever the request's turn budget is spent (one `JSON.stringify` of a
 * 3 MB list held every other request for tens of milliseconds). The bytes are those of `JSON.stringify` of the whole list.
 */
import type { ServerResponse } from "node:http";
import { createGzip, type Gzip } from "node:zlib";
import { bufferBeforeChunkingSize, endWith } from "./framing.ts";
import { TurnBudget } from "../util/eventloop/turn-budget.ts";
import { gzipThresholdBytes, negotiateContentEncoding } from "./response-compression.ts";
import { stringifyJSON } from "../util/json/json.ts";

/** A batch is written once it holds this many bytes, or when the turn's budget is spent. */
export const streamBatchBytes = 64 * 1024;

/** What a streamed list is made of: its fields before `items`, and its items. */
export interface StreamedList<T> {
  /** `kind`, `apiVersion`, `metadata`: everything but `items`. */
  head: Record<string, unknown>;
  items: readonly T[];
  /** The item as it is served (version, field order, partial metadata). */
  encodeItem(item: T): unknown;
  /** `JSON.stringify(encodeItem(item))`, where a caller has it cheaper (encoded-cache.ts). */
  itemJSON?: (item: T) => string;
}

/**
 * Writes `list` as JSON with `code` and `headers`, a batch per turn of the event loop. Framing and
 * compression as upstream's deferredResponseWriter over Go's net/http: writes are held until they
 * pass 2048 bytes (a shorter body gets a Content-Length), or with gzip accepted until they pass
 * 128 KiB (a longer body is compressed). Stops when the client has gone.
 */
export async function writeListStreaming<T>(
  res: ServerResponse,
  code: number,
  headers: Record<string, string | string[]>,
  list: StreamedList<T>,
): Promise<void> {
  const out = new DeferredWriter(res, code, headers, negotiateContentEncoding(res.req?.headers["accept-encoding"]) === "gzip");
  const head = stringifyJSON(list.head);
  const budget = new TurnBudget();
  let batch = `${head.slice(0, -1)},"items":[`;
  const json = list.itemJSON ?? ((item: T): string => stringifyJSON(list.encodeItem(item)));
  for (let i = 0; i < list.items.length; i++) {
    batch += (i > 0 ? "," : "") + json(list.items[i]!);
    const due = budget.due();
    if (batch.length >= streamBatchBytes || due) {
      if (!(await writeSliced(out, batch, budget))) return;
      batch = "";
      if (due) await budget.yield();
      if (out.gone()) return;
    }
  }
  out.end(batch + "]}");
}

/**
 * Writes `s` a batch at a time, giving the loop a turn when the budget is spent: one write of a
 * 2.4 MB item is one synchronous TLS encryption (and gzip hand-off) of all of it. False once the
 * client has gone.
 */
async function writeSliced(out: DeferredWriter, s: string, budget: TurnBudget): Promise<boolean> {
  if (s.length <= streamBatchBytes) {
    await out.write(s);
    return !out.gone();
  }
  for (let at = 0; at < s.length;) {
    let end = Math.min(at + streamBatchBytes, s.length);
    // Never between the two halves of a surrogate pair: each half alone would be written as U+FFFD.
    if (end < s.length && isHighSurrogate(s.charCodeAt(end - 1))) end++;
    await out.write(s.slice(at, end));
    at = end;
    if (out.gone()) return false;
    if (budget.due()) await budget.yield();
  }
  return true;
}

const isHighSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;

/** Resolves when `w` drains or closes. */
function drained(w: ServerResponse | Gzip): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      w.off("drain", done).off("close", done);
      resolve();
    };
    w.on("drain", done).on("close", done);
  });
}

/** deferredResponseWriter: buffers until the framing and the encoding are decided, then streams. */
class DeferredWriter {
  readonly #res: ServerResponse;
  readonly #code: number;
  readonly #headers: Record<string, string | string[]>;
  readonly #gzip: boolean;
  #held: string[] = [];
  #heldBytes = 0;
  #target: ServerResponse | Gzip | undefined;

  constructor(res: ServerResponse, code: number, headers: Record<string, string | string[]>, gzip: boolean) {
    this.#res = res;
    this.#code = code;
    this.#headers = headers;
    this.#gzip = gzip;
  }

  /** True once the client went away or another answer (the timeout's) was written. */
  gone(): boolean {
    return this.#res.destroyed || (this.#target === undefined && this.#res.headersSent);
  }

  async write(s: string): Promise<void> {
    if (this.#target === undefined) {
      this.#held.push(s);
      this.#heldBytes += Buffer.byteLength(s);
      if (this.#heldBytes <= (this.#gzip ? gzipThresholdBytes : bufferBeforeChunkingSize) || this.gone()) return;
      s = this.#commit();
    }
    const target = this.#target!;
    if (!target.write(s) && !this.#res.destroyed) await drained(target);
  }

  end(s: string): void {
    if (this.gone()) return;
    if (this.#target === undefined) {
      endWith(this.#res, this.#code, this.#headers, this.#held.join("") + s);
      return;
    }
    this.#target.end(s);
  }

  /** Sends the headers and returns what was held. */
  #commit(): string {
    const headers = { ...this.#headers };
    if (this.#gzip) {
      const vary = headers["Vary"];
      headers["Content-Encoding"] = "gzip";
      headers["Vary"] = [...(vary === undefined ? [] : Array.isArray(vary) ? vary : [vary]), "Accept-Encoding"];
    }
    this.#res.writeHead(this.#code, headers);
    if (this.#gzip) {
      // Upstream's defaultGzipContentEncodingLevel; zlib compresses on its thread pool.
      const gz = createGzip({ level: 1 });
      gz.pipe(this.#res);
      this.#target = gz;
    } else this.#target = this.#res;
    const held = this.#held.join("");
    this.#held = [];
    return held;
  }
}
