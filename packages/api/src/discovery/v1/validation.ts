/**
 * EndpointSlice validation (pkg/apis/discovery/validation), with upstream's
 * limits and messages. Run `setDefaultsEndpointSlice` first, as the apiserver
 * defaults before it validates (a port without protocol is otherwise Required).
 */
import { field, type FieldErrorList } from "../../errors/index.ts";
import { validateEndpointIP } from "../../core/v1/validation/special-ip.ts";
import {
  isQualifiedName,
  isValidLabelValue,
  nameIsDNSSubdomain,
  validateDNS1123Label,
  validateImmutableField,
  validateLabels,
  validateObjectMeta,
} from "../../meta/v1/index.ts";
import {
  deprecatedEndpointSliceAddressTypes,
  endpointPortProtocols,
  endpointSliceAddressTypes,
  endpointSliceLimits as L,
} from "./constants.ts";
import { isFullyQualifiedDomainName, isValidIPv4Address, isValidIPv6Address } from "./endpoint-address.ts";
import type { EndpointSlice, EndpointSliceEndpoint, EndpointSliceHints, EndpointSlicePort } from "./types.ts";

const zoneLabel = "topology.kubernetes.io/zone";

/** `ValidateEndpointSliceName`: a DNS-1123 subdomain. */
export const validateEndpointSliceName = nameIsDNSSubdomain;

/** The family's parse errors, or (only when there are none) `ValidateEndpointIP`'s. */
function ipThenSpecial(ipErrs: FieldErrorList, a: string, p: string): FieldErrorList {
  return ipErrs.length > 0 ? ipErrs : validateEndpointIP(a, p);
}

function validateAddresses(ep: EndpointSliceEndpoint, addressType: string, path: string): FieldErrorList {
  const errs: FieldErrorList = [];
  if (ep.addresses.length === 0) errs.push(field.required(path, "must contain at least 1 address"));
  else if (ep.addresses.length > L.maxAddresses) errs.push(field.tooMany(path, ep.addresses.length, L.maxAddresses));
  ep.addresses.forEach((a, i) => {
    const p = `${path}[${i}]`;
    // unknown address types fall through unvalidated, as upstream
    // The special-IP check runs only on an address that parsed, so a malformed one is reported once.
    if (addressType === "IPv4") errs.push(...ipThenSpecial(isValidIPv4Address(p, a), a, p));
    else if (addressType === "IPv6") errs.push(...ipThenSpecial(isValidIPv6Address(p, a), a, p));
    else if (addressType === "FQDN") errs.push(...isFullyQualifiedDomainName(p, a));
  });
  return errs;
}

function validateNamedHints(
  hints: ReadonlyArray<{ name: string }>,
  path: string,
  max: number,
  check: (n: string) => string[],
): FieldErrorList {
  if (hints.length > max) return [field.tooMany(path, hints.length, max)];
  const errs: FieldErrorList = [];
  const seen = new Set<string>();
  hints.forEach((h, i) => {
    const p = `${path}[${i}].name`;
    if (seen.has(h.name)) errs.push(field.duplicate(p, h.name));
    else seen.add(h.name);
    for (const m of check(h.name)) errs.push(field.invalid(p, h.name, m));
  });
  return errs;
}

function validateHints(hints: EndpointSliceHints, path: string): FieldErrorList {
  const zones = validateNamedHints(hints.forZones ?? [], `${path}.forZones`, L.maxZoneHints, isValidLabelValue);
  if (zones.some((e) => e.type === "TooMany")) return zones;
  return [...zones, ...validateNamedHints(hints.forNodes ?? [], `${path}.forNodes`, L.maxNodeHints, (n) => nameIsDNSSubdomain(n, false))];
}

function validateEndpoint(ep: EndpointSliceEndpoint, addressType: string, path: string): FieldErrorList {
  const errs = validateAddresses(ep, addressType, `${path}.addresses`);
  if (ep.nodeName !== undefined) {
    for (const m of nameIsDNSSubdomain(ep.nodeName, false)) errs.push(field.invalid(`${path}.nodeName`, ep.nodeName, m));
  }
  const topo = ep.deprecatedTopology ?? {};
  const topoPath = `${path}.deprecatedTopology`;
  if (Object.keys(topo).length > L.maxTopologyLabels) errs.push(field.tooMany(topoPath, Object.keys(topo).length, L.maxTopologyLabels));
  errs.push(...validateLabels(topo, topoPath));
  if (zoneLabel in topo) errs.push(field.internal(`${topoPath}[${zoneLabel}]`, "reserved key was not removed in conversion"));
  if (ep.hostname !== undefined) errs.push(...validateDNS1123Label(ep.hostname, `${path}.hostname`));
  if (ep.hints !== undefined) errs.push(...validateHints(ep.hints, `${path}.hints`));
  return errs;
}

function validatePorts(ports: readonly EndpointSlicePort[]): FieldErrorList {
  if (ports.length > L.maxPorts) return [field.tooMany("ports", ports.length, L.maxPorts)];
  const errs: FieldErrorList = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const p = `ports[${i}]`;
    const name = port.name ?? "";
    if (name.length > 0) errs.push(...validateDNS1123Label(name, `${p}.name`));
    if (names.has(name)) errs.push(field.duplicate(`${p}.name`, name));
    else names.add(name);
    if (port.protocol === undefined) errs.push(field.required(`${p}.protocol`));
    else if (!(endpointPortProtocols as readonly string[]).includes(port.protocol)) {
      errs.push(field.notSupported(`${p}.protocol`, port.protocol, endpointPortProtocols));
    }
    if (port.appProtocol !== undefined) {
      for (const m of isQualifiedName(port.appProtocol)) errs.push(field.invalid(`${p}.appProtocol`, port.appProtocol, m));
    }
  });
  return errs;
}

function validateAddressType(addressType: string, valid: readonly string[]): FieldErrorList {
  if (addressType === "") return [field.required("addressType")];
  if (!valid.includes(addressType)) return [field.notSupported("addressType", addressType, [...valid].sort())];
  return [];
}

function validate(slice: EndpointSlice, validAddressTypes: readonly string[]): FieldErrorList {
  const errs = validateObjectMeta(slice.metadata, { namespaced: true, nameValidator: validateEndpointSliceName });
  errs.push(...validateAddressType(slice.addressType, validAddressTypes));
  if (slice.endpoints.length > L.maxEndpoints) errs.push(field.tooMany("endpoints", slice.endpoints.length, L.maxEndpoints));
  else slice.endpoints.forEach((ep, i) => errs.push(...validateEndpoint(ep, slice.addressType, `endpoints[${i}]`)));
  errs.push(...validatePorts(slice.ports ?? []));
  return errs;
}

/** `ValidateEndpointSliceCreate`: addressType must be IPv4, IPv6 or FQDN. */
export function validateEndpointSlice(slice: EndpointSlice): FieldErrorList {
  return validate(slice, endpointSliceAddressTypes);
}

/** `ValidateEndpointSliceUpdate`: also tolerates the deprecated "IP" type, and addressType is immutable. */
export function validateEndpointSliceUpdate(update: EndpointSlice, old: EndpointSlice): FieldErrorList {
  return [
    ...validate(update, [...endpointSliceAddressTypes, ...deprecatedEndpointSliceAddressTypes]),
    ...validateImmutableField(update.addressType, old.addressType, "addressType"),
  ];
}
