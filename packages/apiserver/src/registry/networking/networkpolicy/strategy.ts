/**
 * networking.k8s.io NetworkPolicy REST strategy (pkg/registry/networking/networkpolicy/strategy.go).
 * 1.33 serves no status subresource (the NetworkPolicyStatus gate and field are gone since 1.28).
 */
import {
  setDefaultsNetworkPolicy,
  validateNetworkPolicy,
  validateNetworkPolicyUpdate,
  validationOptionsForNetworking,
  type NetworkPolicy,
} from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import { bumpGeneration, type RESTStrategy } from "../../generic/strategy.ts";

/** Generation starts at 1 and follows spec changes; ValidateUpdate runs both the object and the update rules. */
export const networkPolicyStrategy: RESTStrategy<NetworkPolicy & KubeObject> = {
  group: "networking.k8s.io",
  kind: "NetworkPolicy",
  namespaced: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaults: setDefaultsNetworkPolicy,
  prepareForCreate: (o) => {
    o.metadata.generation = 1;
  },
  prepareForUpdate: bumpGeneration,
  validate: (o) => validateNetworkPolicy(o, validationOptionsForNetworking(undefined)),
  validateUpdate: (o, old) => {
    const opts = validationOptionsForNetworking(old);
    return [...validateNetworkPolicy(o, opts), ...validateNetworkPolicyUpdate(o, old, opts)];
  },
};
