/**
 * What a started apiserver must undo, in one place: each part registers its close as it starts,
 * and closing (on a failed start, or on shutdown) runs the registered closes in reverse, once, as
 * Go's deferred cleanups and upstream's shutdown order (cmd/kube-apiserver/app/server.go: the
 * controllers stop before the server, the server before storage) do.
 */

/** One registered close. */
interface Closer {
  name: string;
  close(): void | Promise<void>;
}

/** A last-in, first-out list of closes that runs at most once. */
export class CloserStack {
  readonly #closers: Closer[] = [];
  #closed: Promise<void> | undefined;

  /** Registers `close` to run before everything registered earlier. */
  push(name: string, close: () => void | Promise<void>): void {
    if (this.#closed) throw new Error(`closer ${name} registered after close`);
    this.#closers.push({ name, close });
  }

  /**
   * Runs the closes in reverse order of registration; every one runs even when an earlier one
   * fails, and the first failure is thrown at the end. Later calls share the first one's result.
   */
  close(): Promise<void> {
    this.#closed ??= this.#run();
    return this.#closed;
  }

  async #run(): Promise<void> {
    let first: { error: unknown } | undefined;
    for (const c of [...this.#closers].reverse()) {
      try {
        await c.close();
      } catch (error) {
        first ??= { error: new Error(`closing ${c.name}: ${error instanceof Error ? error.message : String(error)}`, { cause: error }) };
      }
    }
    if (first) throw first.error;
  }
}
