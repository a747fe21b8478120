/** IPAddress REST strategy (pkg/registry/networking/ipaddress/strategy.go): immutable parentRef, canonical names. */
import { validateIPAddress, validateIPAddressUpdate, type IPAddressShape } from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import type { RESTStrategy } from "../../generic/strategy.ts";

const asIP = (o: KubeObject): IPAddressShape => {
  (o as { spec?: unknown }).spec ??= {};
  return o as unknown as IPAddressShape;
};

export const ipAddressStrategy: RESTStrategy = {
  group: "networking.k8s.io",
  kind: "IPAddress",
  namespaced: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForCreate: () => {},
  prepareForUpdate: () => {},
  validate: (o) => validateIPAddress(asIP(o)),
  validateUpdate: (o, old) => validateIPAddressUpdate(asIP(o), asIP(old)),
};
