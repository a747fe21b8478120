/** TopologyAwareHints event messages (staging/src/k8s.io/endpointslice/topologycache/event.go). */

export const noZoneSpecified = "One or more endpoints do not have a zone specified";
export const noAllocatedHintsForZones = "No hints allocated for zones";
export const topologyAwareHintsEnabled = "Topology Aware Hints has been enabled";
export const topologyAwareHintsDisabled = "Topology Aware Hints has been disabled";
export const insufficientNodeInfo = "Insufficient Node information: allocatable CPU or zone not specified on one or more nodes";
export const nodesReadyInOneZoneOnly = "Nodes only ready in one zone";
export const insufficientNumberOfEndpoints = "Insufficient number of endpoints";
export const minAllocationExceedsOverloadThreshold =
  "Unable to allocate minimum required endpoints to each zone without exceeding overload threshold";

/** An Event to record on the Service (`EventBuilder`): built by the cache, published by the controller. */
export interface EventBuilder {
  readonly eventType: "Normal" | "Warning";
  readonly reason: string;
  message: string;
}

/** `FormatWithAddressType`. */
export function formatWithAddressType(s: string, addressType: string): string {
  return `${s}, addressType: ${addressType}`;
}

/** A Warning TopologyAwareHintsDisabled event. */
export function hintsDisabled(message: string): EventBuilder {
  return { eventType: "Warning", reason: "TopologyAwareHintsDisabled", message };
}
