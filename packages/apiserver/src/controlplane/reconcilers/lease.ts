/**
 * upstream pkg/controlplane/reconcilers/lease.go, `leaseEndpointReconciler` (the default
 * `--endpoint-reconciler-type=lease`): every apiserver refreshes its own master lease and then
 * makes the `kubernetes` Endpoints (and, through the adapter, its EndpointSlice) list exactly the
 * addresses whose lease is live. A crashed apiserver's lease expires and its address leaves at the
 * next reconcile of any other apiserver; a clean shutdown removes its own lease and address at once.
 */
import { StatusError, repackSubsets, type EndpointPort, type EndpointSubset } from "@servicenet/api";
import type { KubeObject } from "../../storage/index.ts";
import type { EndpointsAdapter } from "./endpoints-adapter.ts";
import type { Leases } from "./leases.ts";

/** discovery.LabelSkipMirror. */
export const labelSkipMirror = "endpointslice.kubernetes.io/skip-mirror";

const namespaceDefault = "default";

/** upstream EndpointReconciler. */
export interface EndpointReconciler {
  reconcileEndpoints(serviceName: string, ip: string, endpointPorts: EndpointPort[], reconcilePorts: boolean): Promise<void>;
  removeEndpoints(serviceName: string, ip: string, endpointPorts: EndpointPort[]): Promise<void>;
  stopReconciling(): void;
}

/** upstream setSkipMirrorTrue: true when the label had to be set. */
function setSkipMirrorTrue(e: KubeObject): boolean {
  const labels = (e.metadata["labels"] ?? {}) as Record<string, string>;
  if (labels[labelSkipMirror] === "true") return false;
  e.metadata["labels"] = { ...labels, [labelSkipMirror]: "true" };
  return true;
}

function samePort(a: EndpointPort, b: EndpointPort | undefined): boolean {
  return (
    b !== undefined &&
    (a.name ?? "") === (b.name ?? "") &&
    a.port === b.port &&
    (a.protocol ?? "") === (b.protocol ?? "") &&
    (a.appProtocol ?? "") === (b.appProtocol ?? "")
  );
}

/**
 * upstream checkEndpointSubsetFormatWithLease: exactly one subset (formatCorrect), whose addresses
 * are exactly the expected IPs in any order (ipsCorrect) and, when asked, whose ports are exactly
 * `ports` in order (portsCorrect).
 */
export function checkEndpointSubsetFormatWithLease(
  e: KubeObject,
  expectedIPs: readonly string[],
  ports: readonly EndpointPort[],
  reconcilePorts: boolean,
): { formatCorrect: boolean; ipsCorrect: boolean; portsCorrect: boolean } {
  const subsets = (e["subsets"] ?? []) as EndpointSubset[];
  if (subsets.length !== 1) return { formatCorrect: false, ipsCorrect: false, portsCorrect: false };
  const sub = subsets[0]!;
  const have = sub.ports ?? [];
  const portsCorrect = !reconcilePorts || (have.length === ports.length && ports.every((p, i) => samePort(p, have[i])));
  const addresses = sub.addresses ?? [];
  let ipsCorrect = addresses.length === expectedIPs.length;
  if (ipsCorrect) {
    const seen = new Map(expectedIPs.map((ip) => [ip, false]));
    for (const a of addresses) {
      if (seen.get(a.ip) !== false) {
        ipsCorrect = false;
        break;
      }
      seen.set(a.ip, true);
    }
  }
  return { formatCorrect: true, ipsCorrect, portsCorrect };
}

/** A one-at-a-time lock (upstream's reconcilingLock). */
class Mutex {
  #tail: Promise<unknown> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.#tail.then(fn, fn);
    this.#tail = next.catch(() => undefined);
    return next;
  }
}

/** upstream NewLeaseEndpointReconciler. */
export class LeaseEndpointReconciler implements EndpointReconciler {
  readonly #adapter: EndpointsAdapter;
  readonly #leases: Leases;
  readonly #lock = new Mutex();
  #stopReconcilingCalled = false;
  /** Called with upstream's warning when the Endpoints are rewritten. */
  onReset?: (serviceName: string, ips: string[]) => void;

  constructor(adapter: EndpointsAdapter, leases: Leases) {
    this.#adapter = adapter;
    this.#leases = leases;
  }

  /** Refreshes this apiserver's lease, then reconciles the Endpoints against the live leases. */
  reconcileEndpoints(serviceName: string, ip: string, endpointPorts: EndpointPort[], reconcilePorts: boolean): Promise<void> {
    return this.#lock.run(async () => {
      if (this.#stopReconcilingCalled) return;
      // Refresh our key first, whatever happens below, so that at least some apiservers add us.
      await this.#leases.updateLease(ip);
      await this.#doReconcile(serviceName, endpointPorts, reconcilePorts);
    });
  }

  /** Removes this apiserver's lease and address (on shutdown, and on start for a stale one). */
  removeEndpoints(serviceName: string, ip: string, endpointPorts: EndpointPort[]): Promise<void> {
    return this.#lock.run(async () => {
      await this.#leases.removeLease(ip);
      await this.#doReconcile(serviceName, endpointPorts, true);
    });
  }

  stopReconciling(): void {
    this.#stopReconcilingCalled = true;
  }

  async #doReconcile(serviceName: string, endpointPorts: EndpointPort[], reconcilePorts: boolean): Promise<void> {
    let e: KubeObject;
    let shouldCreate = false;
    try {
      e = structuredClone(await this.#adapter.get(namespaceDefault, serviceName));
    } catch (err) {
      if (!(err instanceof StatusError && err.reason === "NotFound")) throw err;
      shouldCreate = true;
      e = { apiVersion: "v1", kind: "Endpoints", metadata: { name: serviceName, namespace: namespaceDefault } };
    }
    const masterIPs = await this.#leases.listLeases();
    // We just refreshed our own key, so none listed means an invalid state: keep the Endpoints.
    // A stopping apiserver that was the last one goes on and removes its own address.
    if (!this.#stopReconcilingCalled && masterIPs.length === 0) {
      throw new Error("no API server IP addresses were listed in storage, refusing to erase all endpoints for the kubernetes Service");
    }
    // Don't let the EndpointSliceMirroring controller mirror this one.
    const skipMirrorChanged = setSkipMirrorTrue(e);
    const { formatCorrect, ipsCorrect, portsCorrect } = checkEndpointSubsetFormatWithLease(e, masterIPs, endpointPorts, reconcilePorts);
    if (!skipMirrorChanged && formatCorrect && ipsCorrect && portsCorrect) {
      await this.#adapter.ensureEndpointSliceFromEndpoints(namespaceDefault, e);
      return;
    }
    let subsets = (e["subsets"] ?? []) as EndpointSubset[];
    // Something is egregiously wrong: re-make the record.
    if (!formatCorrect) subsets = [{ addresses: [], ports: endpointPorts }];
    if (!formatCorrect || !ipsCorrect) {
      subsets[0] = { ...subsets[0], addresses: masterIPs.map((ip) => ({ ip })) };
      // Lexicographic order is retained by this step.
      subsets = repackSubsets(subsets);
    }
    if (subsets.length !== 0 && !portsCorrect) subsets[0] = { ...subsets[0], ports: endpointPorts };
    e["subsets"] = subsets;
    this.onReset?.(serviceName, masterIPs);
    if (shouldCreate) {
      try {
        await this.#adapter.create(namespaceDefault, e);
      } catch (err) {
        if (!(err instanceof StatusError && err.reason === "AlreadyExists")) throw err;
      }
    } else {
      await this.#adapter.update(namespaceDefault, e);
    }
  }
}
