/** IPAddress REST strategy (pkg/registry/networking/ipaddress/strategy.go): immutable parentRef, canonical names. */
import { validateIPAddress, validateIPAddressUpdate, type IPAddressShape } from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import type { RESTStrategy } from "../../generic/strategy.ts";

/** An IPAddress of any served version (v1, v1beta1). */
type IPAddressObject = KubeObject & IPAddressShape;

/** A body without a spec is validated as Go's zero IPAddressSpec. */
const withSpec = (o: IPAddressObject): IPAddressObject => {
  (o as KubeObject)["spec"] ??= {};
  return o;
};

export const ipAddressStrategy: RESTStrategy<IPAddressObject> = {
  group: "networking.k8s.io",
  kind: "IPAddress",
  namespaced: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForCreate: () => {},
  prepareForUpdate: () => {},
  validate: (o) => validateIPAddress(withSpec(o)),
  validateUpdate: (o, old) => validateIPAddressUpdate(withSpec(o), withSpec(old)),
};
