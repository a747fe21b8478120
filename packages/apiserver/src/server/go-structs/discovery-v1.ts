/** discovery/v1 as k8s.io/api/discovery/v1/types.go (v1.33) declares it; see types.ts for the notation. */
import type { GoStructs } from "./types.ts";

export const discoveryV1: GoStructs = {
  Endpoint: {
    addresses: "[]string",
    conditions: "discovery/v1.EndpointConditions,omitempty",
    hostname: "*string,omitempty",
    targetRef: "*core/v1.ObjectReference,omitempty",
    deprecatedTopology: "map[string]string,omitempty",
    nodeName: "*string,omitempty",
    zone: "*string,omitempty",
    hints: "*discovery/v1.EndpointHints,omitempty",
  },
  EndpointConditions: { ready: "*bool,omitempty", serving: "*bool,omitempty", terminating: "*bool,omitempty" },
  EndpointHints: { forZones: "[]discovery/v1.ForZone,omitempty", forNodes: "[]discovery/v1.ForNode,omitempty" },
  EndpointPort: { name: "*string,omitempty", protocol: "*string,omitempty", port: "*int32,omitempty", appProtocol: "*string,omitempty" },
  EndpointSlice: {
    kind: "string,omitempty",
    apiVersion: "string,omitempty",
    metadata: "meta/v1.ObjectMeta,omitempty",
    addressType: "string",
    endpoints: "[]discovery/v1.Endpoint",
    ports: "[]discovery/v1.EndpointPort",
  },
  ForNode: { name: "string" },
  ForZone: { name: "string" },
};
