/**
 * A MemoryInformer whose whole-cache `list()` fails the test: a controller handed one must read
 * through its listers (the namespace index, `byIndex`) and never scan every cached object.
 */
import { MemoryInformer } from "@servicenet/client/tools/cache";

interface HasMeta {
  metadata?: { name?: string | undefined; namespace?: string | undefined } | undefined;
}

export class NoScanInformer<T extends HasMeta> extends MemoryInformer<T> {
  override list(): readonly T[] {
    throw new Error("scanned the whole cache instead of reading one namespace through a lister");
  }
}

/** The keys `queue` holds after `change`, once the keys queued before it are drained. */
export async function keysQueuedBy(
  queue: { len(): number; get(): Promise<string | undefined>; done(key: string): void },
  change: () => void,
): Promise<string[]> {
  for (let n = queue.len(); n > 0; n--) queue.done((await queue.get())!);
  change();
  const keys: string[] = [];
  for (let n = queue.len(); n > 0; n--) keys.push((await queue.get())!);
  return keys;
}
