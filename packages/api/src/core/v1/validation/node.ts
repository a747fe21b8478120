/** A minimal `ValidateNode`: metadata and `spec.podCIDRs`; `ValidateNodeUpdate` adds podCIDR immutability. */
import { field, type FieldErrorList } from "../../../errors/index.ts";
import { isDualStackCIDRStrings, isValidCIDR } from "../../../net/index.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../../meta/v1/validation/object-meta.ts";
import type { Node } from "../node.ts";

function validatePodCIDRs(node: Node): FieldErrorList {
  const cidrs = node.spec.podCIDRs ?? [];
  const errs: FieldErrorList = [];
  cidrs.forEach((c, i) => errs.push(...isValidCIDR(`spec.podCIDRs[${i}]`, c)));
  if (cidrs.length > 1) {
    if (!isDualStackCIDRStrings(cidrs) || cidrs.length > 2)
      errs.push(field.invalid("spec.podCIDRs", cidrs, "may specify no more than one CIDR for each IP family"));
    const seen = new Set<string>();
    cidrs.forEach((c, i) => {
      if (seen.has(c)) errs.push(field.duplicate(`spec.podCIDRs[${i}]`, c));
      seen.add(c);
    });
  }
  return errs;
}

/** `ValidateNode` (subset): cluster-scoped DNS-subdomain name, podCIDRs. */
export function validateNode(node: Node): FieldErrorList {
  return [...validateObjectMeta(node.metadata, { namespaced: false }), ...validatePodCIDRs(node)];
}

/** `ValidateNodeUpdate` (subset): once set, podCIDRs may not change; addresses must be unique. */
export function validateNodeUpdate(node: Node, oldNode: Node): FieldErrorList {
  const errs = [...validateObjectMetaUpdate(node.metadata, oldNode.metadata), ...validatePodCIDRs(node)];
  const oldCIDRs = oldNode.spec.podCIDRs ?? [];
  const newCIDRs = node.spec.podCIDRs ?? [];
  if (oldCIDRs.length > 0 && (oldCIDRs.length !== newCIDRs.length || oldCIDRs.some((c, i) => c !== newCIDRs[i]))) {
    errs.push(field.forbidden("spec.podCIDRs", 'node updates may not change podCIDR except from "" to valid'));
  }
  const seen = new Set<string>();
  (node.status?.addresses ?? []).forEach((a, i) => {
    const key = `${a.type}/${a.address}`;
    if (seen.has(key)) errs.push(field.duplicate(`status.addresses[${i}]`, a));
    seen.add(key);
  });
  return errs;
}
