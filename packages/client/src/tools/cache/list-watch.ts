/**
 * What a Reflector lists and watches (client-go tools/cache listwatch.go `ListerWatcher`), and the
 * one over client-node: LIST through a typed API call (as plain JSON), WATCH through client-node's
 * `Watch` on the same path with the same selectors, bookmarks on.
 */
import { Watch, type KubeConfig } from "@kubernetes/client-node";

/** A plain-JSON list, what a list function returns. */
export interface PlainList<T> {
  metadata?: { resourceVersion?: string | undefined } | undefined;
  items: T[];
}

/** One watch event as the server sends it (`watch.Event`). */
export interface WatchEvent {
  /** "ADDED", "MODIFIED", "DELETED", "BOOKMARK" or "ERROR"; kept open for what a server may add. */
  type: string;
  object: unknown;
}

/** An open watch; abort() closes it (done is then not called). */
export interface WatchHandle {
  abort(): void;
}

/** `cache.ListerWatcher`. */
export interface ListerWatcher<T> {
  list(): Promise<PlainList<T>>;
  /**
   * Watches from `resourceVersion`; `onEvent` per event, `done(err)` once when the stream ends
   * (err null for a clean close by the server).
   */
  watch(resourceVersion: string, onEvent: (e: WatchEvent) => void, done: (err: unknown) => void): Promise<WatchHandle>;
}

/** Selectors and path of a ListWatch. */
export interface ListWatchOptions<T> {
  kubeConfig: KubeConfig;
  /** Collection path, e.g. `/api/v1/pods`. */
  path: string;
  /** LIST of the same resource, with the same selectors, as plain JSON (see rest.toPlain). */
  list: () => Promise<PlainList<T>>;
  labelSelector?: string | undefined;
  fieldSelector?: string | undefined;
}

/** `cache.NewListWatchFromClient` over client-node. */
export function newListWatch<T>(o: ListWatchOptions<T>): ListerWatcher<T> {
  const watcher = new Watch(o.kubeConfig);
  return {
    list: o.list,
    async watch(resourceVersion, onEvent, done) {
      const params: Record<string, string> = { resourceVersion, allowWatchBookmarks: "true" };
      if (o.labelSelector !== undefined) params["labelSelector"] = o.labelSelector;
      if (o.fieldSelector !== undefined) params["fieldSelector"] = o.fieldSelector;
      let aborted = false;
      const controller = await watcher.watch(
        o.path,
        params,
        (type: string, object: unknown) => onEvent({ type, object }),
        (err: unknown) => {
          if (!aborted) done(err ?? null);
        },
      );
      return {
        abort() {
          aborted = true;
          controller.abort();
        },
      };
    },
  };
}
