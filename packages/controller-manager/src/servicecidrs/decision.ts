/**
 * The pure part of the ServiceCIDR controller's sync
 * (pkg/controller/servicecidrs/servicecidrs_controller.go sync): keep the finalizer and Ready=True on live
 * ServiceCIDRs; release a deleting one only when no allocated IPAddress
 * would be orphaned and the grace period since deletion has passed.
 */
import {
  ipAllocatorControllerName,
  labelIPAddressManagedBy,
  cidrContainsCIDR,
  parseCIDR,
  parseIP,
  prefixContainsIP,
  serviceCIDRMessages,
  serviceCIDRProtectionFinalizer,
  serviceCIDRReasonTerminating,
  type CIDR,
  type IPAddress,
  type ServiceCIDR,
} from "@servicenet/api";

/** `outer` contains all of `inner` (same or shorter prefix). */
export function cidrCovers(outer: CIDR, inner: CIDR): boolean {
  return cidrContainsCIDR(outer, inner);
}

/** Upstream deletionGracePeriod: informers of every apiserver must see the deletion before IPs stop being checked. */
export const deletionGracePeriodMs = 10_000;

export interface ReadyCondition {
  status: "True" | "False";
  reason: string;
  message: string;
}

export interface ServiceCIDRDecision {
  addFinalizer: boolean;
  removeFinalizer: boolean;
  /** The Ready condition the object must carry; undefined leaves status alone. */
  ready?: ReadyCondition | undefined;
  /** Sync again after this many ms (grace period not over). */
  requeueAfterMs?: number | undefined;
  /** IPAddresses that only this ServiceCIDR covers (why a deletion is blocked). */
  blockingIPs: string[];
}

export interface ServiceCIDRDecisionInput {
  cidr: ServiceCIDR;
  /** Every ServiceCIDR the informer holds (including `cidr`). */
  allCIDRs: readonly ServiceCIDR[];
  ipAddresses: readonly IPAddress[];
  now: number;
  /**
   * Upstream counts a ServiceCIDR that is itself being deleted as cover;
   * servicenet by default does not (two overlapping CIDRs deleted together
   * would otherwise release each other and orphan their IPs).
   */
  deletingCIDRsCover?: boolean;
}

const isDeleting = (sc: ServiceCIDR) => sc.metadata.deletionTimestamp !== undefined;

/** The IPAddresses that would be left outside every (live) ServiceCIDR if `cidr` went away (`canDeleteCIDR`). */
export function orphanedIPs(input: Omit<ServiceCIDRDecisionInput, "now">): string[] {
  const { cidr: sc } = input;
  const others = input.allCIDRs.filter(
    (o) => o.metadata.name !== sc.metadata.name && (input.deletingCIDRsCover === true || !isDeleting(o)),
  );
  const mine = (sc.spec.cidrs ?? []).map(parseCIDR).filter((c) => c !== null);
  const otherPrefixes = others.flatMap((o) => (o.spec.cidrs ?? []).map(parseCIDR).filter((c) => c !== null));
  // Shortcut: every CIDR of sc lies inside another ServiceCIDR's CIDR, so nothing can be orphaned.
  if (mine.length > 0 && mine.every((m) => otherPrefixes.some((p) => cidrCovers(p, m)))) return [];
  const blocked: string[] = [];
  for (const ipa of input.ipAddresses) {
    if (ipa.metadata.labels?.[labelIPAddressManagedBy] !== ipAllocatorControllerName) continue;
    const ip = parseIP(ipa.metadata.name ?? "");
    if (ip === null || !mine.some((m) => prefixContainsIP(m, ip))) continue;
    if (!otherPrefixes.some((p) => prefixContainsIP(p, ip))) blocked.push(ipa.metadata.name ?? "");
  }
  return blocked.sort();
}

/** What sync(key) must do for one ServiceCIDR. */
export function decideServiceCIDR(input: ServiceCIDRDecisionInput): ServiceCIDRDecision {
  const { cidr: sc, now } = input;
  const hasFinalizer = (sc.metadata.finalizers ?? []).includes(serviceCIDRProtectionFinalizer);
  if (!isDeleting(sc)) {
    return {
      addFinalizer: !hasFinalizer,
      removeFinalizer: false,
      ready: { status: "True", reason: "", message: serviceCIDRMessages.ready },
      blockingIPs: [],
    };
  }
  const blockingIPs = orphanedIPs(input);
  if (blockingIPs.length > 0) {
    // The finalizer stays; an IPAddress delete event re-evaluates.
    return {
      addFinalizer: false,
      removeFinalizer: false,
      ready: { status: "False", reason: serviceCIDRReasonTerminating, message: serviceCIDRMessages.terminating },
      blockingIPs,
    };
  }
  const deletedAt = Date.parse(sc.metadata.deletionTimestamp!);
  const remaining = deletionGracePeriodMs - (now - (Number.isNaN(deletedAt) ? now : deletedAt));
  if (remaining > 0) return { addFinalizer: false, removeFinalizer: false, requeueAfterMs: remaining, blockingIPs: [] };
  return { addFinalizer: false, removeFinalizer: hasFinalizer, blockingIPs: [] };
}
