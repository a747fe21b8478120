/**
 * The running side of upstream's kubernetesservice Controller (Start, Run, UpdateKubernetesService,
 * Stop in pkg/controlplane/controller/kubernetesservice/controller.go): every EndpointInterval the
 * `kubernetes` Service is reconciled and then its Endpoints/EndpointSlice through the endpoint
 * reconciler, so that they list every live apiserver's advertise address.
 */
import type { Logger } from "@servicenet/component-base/logs";
import { networkInterfaces } from "node:os";
import type { EndpointPort } from "@servicenet/api";
import { isIPv4String, parseIP } from "@servicenet/api";
import type { GenericStore } from "../../../registry/generic/store.ts";
import type { Store } from "../../../storage/index.ts";
import {
  EndpointsAdapter,
  LeaseEndpointReconciler,
  registryClient,
  StorageLeases,
  type EndpointReconciler,
} from "../../reconcilers/index.ts";
import { kubernetesServiceName, reconcileKubernetesServiceIn } from "./controller.ts";

/** upstream DefaultEndpointReconcilerInterval. */
export const defaultEndpointIntervalMs = 10_000;

export interface KubernetesServiceControllerOptions {
  stores: ReadonlyMap<string, GenericStore>;
  store: Store;
  /** The secure port: the Endpoints' port (upstream PublicServicePort). */
  port: number;
  /**
   * This apiserver's address in the Endpoints (upstream PublicIP, `--advertise-address`);
   * undefined: the Service alone is reconciled, its endpoints are left alone.
   */
  advertiseAddress: string | undefined;
  intervalMs?: number;
  /** Lease TTL; upstream's DefaultEndpointReconcilerTTL is 15 s. */
  leaseTTLMs?: number;
  /**
   * `servicenet up --workers N`: the N processes are one apiserver with one address, so they share
   * one lease. A starting worker does not take a sibling's live lease for a stale one, and a stopping
   * worker finding the lease already gone (a sibling removed it) is the expected end, not an error.
   */
  sharedLease?: boolean;
  /** Errors, and warnings as unconditional info lines (klog.Warning ignores `-v`). */
  logger: Logger;
}

/**
 * upstream SecureServingOptions.DefaultExternalAddress / utilnet.ResolveBindAddress: the bind
 * address, unless it is unspecified (0.0.0.0, ::) or loopback; then a host interface (upstream's
 * ChooseHostInterface takes the default route's; we take the first non-internal IPv4, then IPv6).
 * A loopback address could not be written anyway: Endpoints and EndpointSlice validation reject
 * loopback IPs. undefined when the host has no such interface (upstream then fails to start; we
 * run without the endpoint reconciler).
 */
export function defaultAdvertiseAddress(bindAddress: string | undefined): string | undefined {
  if (bindAddress && parseIP(bindAddress) !== null && !isUnspecifiedOrLoopback(bindAddress)) return bindAddress;
  const all = Object.values(networkInterfaces()).flatMap((a) => a ?? []);
  const usable = all.filter((a) => !a.internal && !isUnspecifiedOrLoopback(a.address) && !a.address.toLowerCase().startsWith("fe80:"));
  return (usable.find((a) => isIPv4String(a.address)) ?? usable[0])?.address;
}

function isUnspecifiedOrLoopback(ip: string): boolean {
  return ip === "0.0.0.0" || ip === "::" || ip === "::1" || ip.startsWith("127.");
}

/** upstream createEndpointPortSpec. */
function endpointPortSpec(port: number): EndpointPort[] {
  return [{ name: "https", port, protocol: "TCP" }];
}

/** Starts the loop; `stop` removes this apiserver's address before resolving (upstream Stop). */
export class KubernetesServiceController {
  readonly reconciler: EndpointReconciler;
  readonly #o: KubernetesServiceControllerOptions;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(o: KubernetesServiceControllerOptions) {
    this.#o = o;
    const endpoints = o.stores.get("services/endpoints");
    const slices = o.stores.get("endpointslices");
    if (!endpoints || !slices) throw new Error("the kubernetes service controller needs the endpoints and endpointslices storage");
    const leases = new StorageLeases(o.store, o.leaseTTLMs !== undefined ? { leaseTimeMs: o.leaseTTLMs } : {});
    const r = new LeaseEndpointReconciler(new EndpointsAdapter(registryClient(endpoints), registryClient(slices)), leases);
    r.onReset = (svc, ips) => o.logger.info("Resetting endpoints for master service", { service: svc, ips });
    this.reconciler = r;
  }

  /**
   * upstream Start: first remove a stale lease of our own address (a previous run that did not stop
   * cleanly), then reconcile once (ports are corrected here only, as upstream's first run).
   */
  async start(): Promise<void> {
    const { advertiseAddress: ip, port } = this.#o;
    if (ip === undefined)
      this.#o.logger.info("no advertise address (no non-loopback interface): the kubernetes Service's endpoints are not reconciled");
    else if (!this.#o.sharedLease)
      try {
        await this.reconciler.removeEndpoints(kubernetesServiceName, ip, endpointPortSpec(port));
        this.#o.logger.error(
          "Found stale data, removed previous endpoints on kubernetes service, apiserver didn't exit successfully previously",
        );
      } catch (e) {
        if (!((e as { reason?: string }).reason === "NotFound"))
          this.#o.logger.error("Error removing old endpoints from kubernetes service", { err: String(e) });
      }
    await this.#update(true);
    this.#timer = setInterval(() => void this.#tick(), this.#o.intervalMs ?? defaultEndpointIntervalMs);
    this.#timer.unref();
  }

  #tick(): void {
    if (this.#running) return;
    this.#running = this.#update(false).finally(() => (this.#running = undefined));
  }

  /** upstream UpdateKubernetesService: the Service, then the endpoints (errors are logged, never fatal). */
  async #update(reconcilePorts: boolean): Promise<void> {
    try {
      await reconcileKubernetesServiceIn(this.#o.stores, { port: this.#o.port });
    } catch (e) {
      this.#o.logger.error("unable to sync kubernetes service", { err: String(e) });
    }
    const ip = this.#o.advertiseAddress;
    if (ip === undefined) return;
    try {
      await this.reconciler.reconcileEndpoints(kubernetesServiceName, ip, endpointPortSpec(this.#o.port), reconcilePorts);
    } catch (e) {
      this.#o.logger.error("unable to sync kubernetes service endpoints", { err: String(e) });
    }
  }

  /** upstream Stop: stop reconciling and remove our address, giving up after two intervals. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.reconciler.stopReconciling();
    const ip = this.#o.advertiseAddress;
    if (ip === undefined) return void (await this.#running);
    const removal = this.reconciler.removeEndpoints(kubernetesServiceName, ip, endpointPortSpec(this.#o.port)).catch((e: unknown) => {
      if (this.#o.sharedLease && (e as { reason?: string }).reason === "NotFound") return;
      this.#o.logger.error("Unable to remove endpoints from kubernetes service", { err: String(e) });
    });
    let timeout: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => {
      timeout = setTimeout(
        () => {
          this.#o.logger.info("RemoveEndpoints() timed out");
          resolve();
        },
        2 * (this.#o.intervalMs ?? defaultEndpointIntervalMs),
      );
    });
    await Promise.race([removal, timedOut]);
    clearTimeout(timeout);
    await this.#running;
  }
}
