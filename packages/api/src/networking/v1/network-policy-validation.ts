/**
 * NetworkPolicy validation (pkg/apis/networking/validation/validation.go, 1.33): ValidateNetworkPolicy,
 * ValidateNetworkPolicyUpdate, ports with endPort, peers and ipBlocks, policyTypes.
 */
import { field, GoValue, type FieldErrorList } from "../../errors/index.ts";
import { cidrContains, isValidCIDR, parseCIDRSloppy } from "../../net/index.ts";
import {
  isValidPortName,
  isValidPortNum,
  nameIsDNSSubdomain,
  validateLabelSelector,
  validateObjectMeta,
  validateObjectMetaUpdate,
  type LabelSelector,
} from "../../meta/v1/index.ts";
import type { IPBlock, NetworkPolicy, NetworkPolicyPeer, NetworkPolicyPort } from "./network-policy-types.ts";

/** NetworkPolicyValidationOptions. */
export interface NetworkPolicyValidationOptions {
  allowInvalidLabelValueInSelector?: boolean;
  /** CIDRs the stored object already had: not validated again (ValidateIPBlock). */
  allowCIDRsEvenIfInvalid?: readonly string[];
}

const protocols = ["TCP", "UDP", "SCTP"];
const allowedPolicyTypes = ["Ingress", "Egress"];

/** ValidationOptionsForNetworking: an old object whose podSelector has invalid label values keeps that leniency. */
export function validationOptionsForNetworking(old: NetworkPolicy | undefined): NetworkPolicyValidationOptions {
  const lenient = old !== undefined && validateLabelSelector(old.spec.podSelector, {}, "").length > 0;
  return { allowInvalidLabelValueInSelector: lenient };
}

/** ValidateNetworkPolicy: a DNS-1123 subdomain name and the spec. */
export function validateNetworkPolicy(np: NetworkPolicy, opts: NetworkPolicyValidationOptions = {}): FieldErrorList {
  const errs = validateObjectMeta(np.metadata, { namespaced: true, nameValidator: nameIsDNSSubdomain });
  return [...errs, ...validateNetworkPolicySpec(np, opts)];
}

/** ValidateNetworkPolicyUpdate: metadata update rules and the spec, with the old CIDRs allowed as they are. */
export function validateNetworkPolicyUpdate(np: NetworkPolicy, old: NetworkPolicy, opts: NetworkPolicyValidationOptions): FieldErrorList {
  const existing: string[] = [];
  const collect = (peers: NetworkPolicyPeer[] | undefined) => {
    for (const peer of peers ?? []) if (peer.ipBlock) existing.push(peer.ipBlock.cidr, ...(peer.ipBlock.except ?? []));
  };
  for (const r of old.spec.ingress ?? []) collect(r.from);
  for (const r of old.spec.egress ?? []) collect(r.to);
  const withOld = { ...opts, allowCIDRsEvenIfInvalid: existing };
  return [...validateObjectMetaUpdate(np.metadata, old.metadata), ...validateNetworkPolicySpec(np, withOld)];
}

/** ValidateNetworkPolicySpec: podSelector, every rule's ports and peers, then policyTypes. */
function validateNetworkPolicySpec(np: NetworkPolicy, opts: NetworkPolicyValidationOptions): FieldErrorList {
  const spec = np.spec;
  const sel = { allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector ?? false };
  const errs = validateLabelSelector(spec.podSelector, sel, "spec.podSelector");
  (spec.ingress ?? []).forEach((r, i) => {
    (r.ports ?? []).forEach((port, j) => errs.push(...validateNetworkPolicyPort(port, `spec.ingress[${i}].ports[${j}]`)));
    (r.from ?? []).forEach((peer, j) => errs.push(...validateNetworkPolicyPeer(peer, opts, `spec.ingress[${i}].from[${j}]`)));
  });
  (spec.egress ?? []).forEach((r, i) => {
    (r.ports ?? []).forEach((port, j) => errs.push(...validateNetworkPolicyPort(port, `spec.egress[${i}].ports[${j}]`)));
    (r.to ?? []).forEach((peer, j) => errs.push(...validateNetworkPolicyPeer(peer, opts, `spec.egress[${i}].to[${j}]`)));
  });
  const types = spec.policyTypes ?? [];
  if (types.length > allowedPolicyTypes.length) {
    const bad = new GoValue(`[]networking.PolicyType{${types.map((t) => JSON.stringify(t)).join(", ")}}`);
    errs.push(field.invalid("spec.policyTypes", bad, "may not specify more than two policyTypes"));
    return errs;
  }
  types.forEach((t, i) => {
    if (!allowedPolicyTypes.includes(t)) errs.push(field.notSupported(`spec.policyTypes[${i}]`, t, allowedPolicyTypes));
  });
  return errs;
}

/** ValidateNetworkPolicyPort: protocol, a numbered port with an endPort range, or a named port. */
export function validateNetworkPolicyPort(port: NetworkPolicyPort, p: string): FieldErrorList {
  const errs: FieldErrorList = [];
  if (port.protocol !== undefined && !protocols.includes(port.protocol)) {
    errs.push(field.notSupported(`${p}.protocol`, port.protocol, protocols));
  }
  if (port.port === undefined) {
    if (port.endPort !== undefined)
      errs.push(field.invalid(`${p}.endPort`, port.endPort, "may not be specified when `port` is not specified"));
  } else if (typeof port.port === "number") {
    for (const m of isValidPortNum(port.port)) errs.push(field.invalid(`${p}.port`, port.port, m));
    if (port.endPort !== undefined) {
      if (port.endPort < port.port) errs.push(field.invalid(`${p}.endPort`, port.endPort, "must be greater than or equal to `port`"));
      for (const m of isValidPortNum(port.endPort)) errs.push(field.invalid(`${p}.endPort`, port.endPort, m));
    }
  } else {
    if (port.endPort !== undefined)
      errs.push(field.invalid(`${p}.endPort`, port.endPort, "may not be specified when `port` is non-numeric"));
    for (const m of isValidPortName(port.port)) errs.push(field.invalid(`${p}.port`, port.port, m));
  }
  return errs;
}

/** ValidateNetworkPolicyPeer: exactly the selectors, or an ipBlock alone. */
function validateNetworkPolicyPeer(peer: NetworkPolicyPeer, opts: NetworkPolicyValidationOptions, p: string): FieldErrorList {
  const sel = { allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector ?? false };
  const errs: FieldErrorList = [];
  let n = 0;
  const selector = (s: LabelSelector | undefined, name: string) => {
    if (s === undefined) return;
    n++;
    errs.push(...validateLabelSelector(s, sel, `${p}.${name}`));
  };
  selector(peer.podSelector, "podSelector");
  selector(peer.namespaceSelector, "namespaceSelector");
  if (peer.ipBlock !== undefined) {
    n++;
    errs.push(...validateIPBlock(peer.ipBlock, `${p}.ipBlock`, opts));
  }
  if (n === 0) errs.push(field.required(p, "must specify a peer"));
  else if (n > 1 && peer.ipBlock !== undefined) errs.push(field.forbidden(p, "may not specify both ipBlock and another peer"));
  return errs;
}

/** A legacy CIDR field (IsValidCIDRForLegacyField): a value the old object had is not validated again. */
function validCIDRForLegacyField(p: string, value: string, opts: NetworkPolicyValidationOptions): FieldErrorList {
  return opts.allowCIDRsEvenIfInvalid?.includes(value) ? [] : isValidCIDR(p, value);
}

/** ValidateIPBlock: a CIDR, and each `except` a strict subset of it (same family, longer prefix). */
export function validateIPBlock(b: IPBlock, p: string, opts: NetworkPolicyValidationOptions = {}): FieldErrorList {
  if (b.cidr === "") return [field.required(`${p}.cidr`)];
  const errs = validCIDRForLegacyField(`${p}.cidr`, b.cidr, opts);
  const cidr = parseCIDRSloppy(b.cidr);
  if (cidr === null) return errs;
  (b.except ?? []).forEach((ex, i) => {
    const ep = `${p}.except[${i}]`;
    errs.push(...validCIDRForLegacyField(ep, ex, opts));
    const exCIDR = parseCIDRSloppy(ex);
    if (exCIDR === null) return;
    if (!cidrContains(cidr, exCIDR.ip) || cidr.prefix >= exCIDR.prefix) {
      errs.push(field.invalid(ep, ex, "must be a strict subset of `cidr`"));
    }
  });
  return errs;
}
