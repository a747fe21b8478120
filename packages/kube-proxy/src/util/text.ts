/** Rendered rules as a list of text chunks, joined into one string only when someone reads it. */

export interface ChunkedText {
  /** Pieces whose concatenation is the text; a sync builds this without copying. */
  readonly chunks: readonly string[];
  /** The whole text, joined on first access (applying it needs one string anyway). */
  readonly data: string;
}

/** A ChunkedText over `chunks` with `sep` between them and `end` after the last. */
export function chunkedText(chunks: readonly string[], sep: string, end: string): ChunkedText {
  let joined: string | undefined;
  return {
    chunks,
    get data(): string {
      return (joined ??= chunks.join(sep) + end);
    },
  };
}
