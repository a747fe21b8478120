/** A scripted ListerWatcher for the reflector and informer tests. */
import type { ListerWatcher, PlainList, WatchEvent } from "../tools/cache/list-watch.ts";

export interface Obj {
  metadata: { name: string; namespace?: string; resourceVersion: string; labels?: Record<string, string> };
}

export const obj = (name: string, rv: string, labels?: Record<string, string>): Obj => ({
  metadata: { name, resourceVersion: rv, ...(labels ? { labels } : {}) },
});

interface OpenWatch {
  rv: string;
  emit(e: WatchEvent): void;
  close(err?: unknown): void;
  aborted: boolean;
}

/** Lists return `lists.shift()` (or throw it when it is an Error); each watch is recorded in `watches`. */
export class ScriptedListWatch implements ListerWatcher<Obj> {
  readonly lists: (PlainList<Obj> | Error)[] = [];
  readonly listed: number[] = [];
  readonly watches: OpenWatch[] = [];

  async list(): Promise<PlainList<Obj>> {
    this.listed.push(this.listed.length + 1);
    const next = this.lists.shift();
    if (next === undefined) throw new Error("no list scripted");
    if (next instanceof Error) throw next;
    return next;
  }

  async watch(rv: string, onEvent: (e: WatchEvent) => void, done: (err: unknown) => void) {
    const w: OpenWatch = {
      rv,
      aborted: false,
      emit: (e) => onEvent(e),
      close: (err = null) => done(err),
    };
    this.watches.push(w);
    return { abort: () => void (w.aborted = true) };
  }

  /** The newest watch. */
  get current(): OpenWatch {
    return this.watches.at(-1)!;
  }
}

/** Lets pending promise callbacks run. */
export const flush = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};
