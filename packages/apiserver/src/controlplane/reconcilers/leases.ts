/**
 * The master leases of the lease endpoint reconciler (upstream pkg/controlplane/reconcilers/lease.go,
 * `storageLeases`): one key per apiserver address under `/registry/masterleases/`, refreshed every
 * reconcile and expiring when its apiserver stops refreshing it.
 *
 * Upstream attaches an etcd lease (TTL) to each key. Our KV engines have no leases (SQLite and
 * memory never had them), so the TTL is emulated the way kine does it: the expiry time is stored
 * in the value, expired keys read as absent, and whoever lists them deletes them. This works alike
 * on every backend, etcd included, as long as the apiservers' clocks roughly agree.
 */
import { StatusError } from "@servicenet/api";
import { realClock, type Clock } from "@servicenet/component-base/clock";
import { registryRoot } from "../../storage/keys.ts";
import type { KubeObject, Store } from "../../storage/index.ts";

/** upstream `DefaultEndpointReconcilerTTL`. */
export const defaultEndpointReconcilerTTLMs = 15_000;

/** The key prefix upstream's controlplane passes to NewLeases ("/masterleases/" under the storage prefix). */
export const masterLeasesKey = `${registryRoot}/masterleases/`;

/** Field of the stored value holding the expiry (ms since the epoch): the emulated etcd lease. */
const expiresField = "leaseExpiresAtMs";

/** upstream `Leases`: the set of active apiserver addresses. */
export interface Leases {
  /** The addresses whose lease is live. */
  listLeases(): Promise<string[]>;
  /** Adds or refreshes the lease of `ip`. */
  updateLease(ip: string): Promise<void>;
  /** Removes the lease of `ip`; NotFound when there is none. */
  removeLease(ip: string): Promise<void>;
}

function isExpired(obj: KubeObject, now: number): boolean {
  const at = obj[expiresField];
  return typeof at === "number" && at <= now;
}

/** The address a lease value names (upstream reads Subsets[0].Addresses[0].IP). */
function leaseIP(obj: KubeObject): string | undefined {
  const subsets = obj["subsets"] as Array<{ addresses?: Array<{ ip?: string }> }> | undefined;
  const ip = subsets?.[0]?.addresses?.[0]?.ip;
  return ip ? ip : undefined;
}

/** upstream `storageLeases` over a storage `Store`, with the TTL kept in the value. */
export class StorageLeases implements Leases {
  readonly #store: Store;
  readonly #baseKey: string;
  readonly #leaseTimeMs: number;
  readonly #clock: Clock;

  constructor(store: Store, opts: { baseKey?: string; leaseTimeMs?: number; clock?: Clock } = {}) {
    this.#store = store;
    this.#baseKey = opts.baseKey ?? masterLeasesKey;
    this.#leaseTimeMs = opts.leaseTimeMs ?? defaultEndpointReconcilerTTLMs;
    this.#clock = opts.clock ?? realClock;
  }

  #key(ip: string): string {
    return this.#baseKey.endsWith("/") ? `${this.#baseKey}${ip}` : `${this.#baseKey}/${ip}`;
  }

  async listLeases(): Promise<string[]> {
    const { items } = await this.#store.list(this.#baseKey);
    const now = this.#clock.now();
    const ips: string[] = [];
    for (const item of items) {
      if (isExpired(item, now)) {
        // The emulated lease ran out: drop the key as etcd would have (unless it was refreshed meanwhile).
        await this.#deleteExpired(item);
        continue;
      }
      const ip = leaseIP(item);
      if (ip !== undefined) ips.push(ip);
    }
    return ips;
  }

  async #deleteExpired(item: KubeObject): Promise<void> {
    const key = this.#key(item.metadata.name ?? "");
    try {
      await this.#store.delete(key, { preconditions: { resourceVersion: item.metadata.resourceVersion ?? "" } });
    } catch (e) {
      if (!(e instanceof StatusError && (e.reason === "NotFound" || e.reason === "Conflict"))) throw e;
    }
  }

  async updateLease(ip: string): Promise<void> {
    // Just make sure the right IP is set, and refresh the TTL (which changes the value, so the
    // write always happens, as upstream's Generation++ ensures).
    await this.#store.guaranteedUpdate(
      this.#key(ip),
      (current) => ({
        apiVersion: "v1",
        kind: "Endpoints",
        metadata: { ...current.metadata, name: ip },
        subsets: [{ addresses: [{ ip }] }],
        [expiresField]: this.#clock.now() + this.#leaseTimeMs,
      }),
      { ignoreNotFound: true },
    );
  }

  async removeLease(ip: string): Promise<void> {
    const gone = await this.#store.delete(this.#key(ip));
    // An expired key did not exist as far as etcd is concerned.
    if (isExpired(gone, this.#clock.now())) throw StatusError.notFound({ group: "", resource: "masterleases" }, ip);
  }
}
