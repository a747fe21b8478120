/**
 * `ValidateService`, `ValidateServiceCreate`, `ValidateServiceUpdate` and
 * `ValidateServiceStatusUpdate` (pkg/apis/core/validation), in upstream
 * order and with upstream paths and messages. Cluster-dependent dual-stack
 * rules (SingleStack with two families, RequireDualStack on a single-stack
 * cluster, unconfigured families) are registry checks, not here.
 */
import { field, keyPath, type FieldErrorList } from "../../../errors/index.ts";
import { isValidCIDR, isValidIP } from "../../../net/index.ts";
import { validateDNS1123Subdomain, validateLabels } from "../../../meta/v1/validation/labels.ts";
import { nameIsDNS1035Label } from "../../../meta/v1/validation/name.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../../meta/v1/validation/object-meta.ts";
import {
  annotationLoadBalancerSourceRanges,
  annotationTopologyMode,
  deprecatedAnnotationTopologyAwareHints,
  serviceTypes,
} from "../constants.ts";
import type { Service } from "../service.ts";
import {
  isHeadlessService,
  validateServiceClusterIPsRelatedFields,
  validateUpgradeDowngradeClusterIPs,
  validateUpgradeDowngradeIPFamilies,
} from "./cluster-ips.ts";
import { validateServicePort } from "./ports.ts";
import {
  validateLoadBalancerClassField,
  validateServiceExternalTrafficFieldsUpdate,
  validateServiceExternalTrafficPolicy,
  validateServiceInternalTrafficFieldsValue,
  validateServiceTrafficDistribution,
  validateSessionAffinity,
} from "./service-policies.ts";
import { validateNonSpecialIP } from "./special-ip.ts";
import { validateLoadBalancerStatus } from "./service-status.ts";

/** Sorted, as upstream's `sets.List` prints them. */
export const supportedServiceTypes = ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"] as const;

/** `ValidateServiceName`: Service names are DNS-1035 labels. */
export const validateServiceName = nameIsDNS1035Label;

function validateTypeSpecific(svc: Service): FieldErrorList {
  const spec = svc.spec;
  const errs: FieldErrorList = [];
  const headless = isHeadlessService(svc);
  if (spec.type === serviceTypes.LoadBalancer && headless) {
    errs.push(field.invalid("spec.clusterIPs[0]", spec.clusterIPs?.[0], "may not be set to 'None' for LoadBalancer services"));
  } else if (spec.type === serviceTypes.NodePort && headless) {
    errs.push(field.invalid("spec.clusterIPs[0]", spec.clusterIPs?.[0], "may not be set to 'None' for NodePort services"));
  } else if (spec.type === serviceTypes.ExternalName) {
    // The strategy syncs clusterIPs from clusterIP, so clusterIPs is the field that is checked.
    if ((spec.clusterIPs?.length ?? 0) > 0) errs.push(field.forbidden("spec.clusterIPs", "may not be set for ExternalName services"));
    if ((spec.ipFamilies?.length ?? 0) > 0) errs.push(field.forbidden("spec.ipFamilies", "may not be set for ExternalName services"));
    if (spec.ipFamilyPolicy !== undefined) errs.push(field.forbidden("spec.ipFamilyPolicy", "may not be set for ExternalName services"));
    // A CNAME may end in a dot to mark it fully qualified.
    const cname = (spec.externalName ?? "").replace(/\.$/, "");
    errs.push(...(cname.length > 0 ? validateDNS1123Subdomain(cname, "spec.externalName") : [field.required("spec.externalName")]));
  }
  return errs;
}

function validateExternalIPs(svc: Service): FieldErrorList {
  const errs: FieldErrorList = [];
  (svc.spec.externalIPs ?? []).forEach((ip, i) => {
    const ipErrs = isValidIP(`spec.externalIPs[${i}]`, ip);
    errs.push(...(ipErrs.length > 0 ? ipErrs : validateNonSpecialIP(ip, `spec.externalIPs[${i}]`)));
  });
  return errs;
}

function validateTypeAndNodePorts(svc: Service): FieldErrorList {
  const spec = svc.spec;
  const errs: FieldErrorList = [];
  if (!spec.type) errs.push(field.required("spec.type"));
  else if (!(supportedServiceTypes as readonly string[]).includes(spec.type))
    errs.push(field.notSupported("spec.type", spec.type, supportedServiceTypes));
  const ports = spec.ports ?? [];
  if (spec.type === serviceTypes.ClusterIP) {
    ports.forEach(
      (p, i) =>
        (p.nodePort ?? 0) !== 0 && errs.push(field.forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'")),
    );
  }
  // Duplicates are judged on (protocol, nodePort) and on (protocol, port).
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    if ((p.nodePort ?? 0) === 0) return;
    const key = `${p.protocol ?? ""}/${p.nodePort}`;
    if (nodePorts.has(key)) errs.push(field.duplicate(`spec.ports[${i}].nodePort`, p.nodePort));
    nodePorts.add(key);
  });
  const seen = new Set<string>();
  ports.forEach((p, i) => {
    const key = `${p.protocol ?? ""}/${p.port}`;
    if (seen.has(key)) errs.push(field.duplicate(`spec.ports[${i}]`, { port: p.port, protocol: p.protocol ?? "" }));
    seen.add(key);
  });
  return errs;
}

function validateSourceRanges(svc: Service): FieldErrorList {
  const spec = svc.spec;
  const errs: FieldErrorList = [];
  const notLB = spec.type !== serviceTypes.LoadBalancer;
  if ((spec.loadBalancerSourceRanges?.length ?? 0) > 0) {
    // Upstream's path really is capitalised here.
    const p = "spec.LoadBalancerSourceRanges";
    if (notLB) errs.push(field.forbidden(p, "may only be used when `type` is 'LoadBalancer'"));
    // Values may be space-padded, a leftover of the annotation era.
    spec.loadBalancerSourceRanges!.forEach((v, i) => errs.push(...isValidCIDR(`${p}[${i}]`, v.trim())));
    return errs;
  }
  const ann = svc.metadata.annotations?.[annotationLoadBalancerSourceRanges];
  if (ann === undefined) return errs;
  const p = keyPath("metadata.annotations", annotationLoadBalancerSourceRanges);
  if (notLB) errs.push(field.forbidden(p, "may only be used when `type` is 'LoadBalancer'"));
  const val = ann.trim();
  if (val !== "") for (const v of val.split(",")) errs.push(...isValidCIDR(p, v.trim()));
  return errs;
}

/** `ValidateService`: the whole object, as on create and as the new object of an update. */
export function validateService(svc: Service): FieldErrorList {
  const spec = svc.spec;
  const errs = validateObjectMeta(svc.metadata, { namespaced: true, nameValidator: validateServiceName });
  const ann = svc.metadata.annotations ?? {};
  const hints = ann[deprecatedAnnotationTopologyAwareHints];
  const mode = ann[annotationTopologyMode];
  if (hints !== undefined && mode !== undefined && hints !== mode) {
    errs.push(
      field.invalid(
        keyPath("metadata.annotations", annotationTopologyMode),
        mode,
        `must match annotations[${deprecatedAnnotationTopologyAwareHints}] when both are specified`,
      ),
    );
  }
  if ((spec.ports?.length ?? 0) === 0 && !isHeadlessService(svc) && spec.type !== serviceTypes.ExternalName)
    errs.push(field.required("spec.ports"));
  errs.push(...validateTypeSpecific(svc));
  const names = new Set<string>();
  const ports = spec.ports ?? [];
  ports.forEach((p, i) => errs.push(...validateServicePort(p, ports.length > 1, names, `spec.ports[${i}]`)));
  if (spec.selector !== undefined) errs.push(...validateLabels(spec.selector, "spec.selector"));
  errs.push(...validateSessionAffinity(svc));
  errs.push(...validateServiceClusterIPsRelatedFields(svc));
  errs.push(...validateExternalIPs(svc));
  errs.push(...validateTypeAndNodePorts(svc));
  errs.push(...validateSourceRanges(svc));
  if (spec.allocateLoadBalancerNodePorts !== undefined && spec.type !== serviceTypes.LoadBalancer) {
    errs.push(field.forbidden("spec.allocateLoadBalancerNodePorts", "may only be used when `type` is 'LoadBalancer'"));
  }
  // Upstream reports this one without the `spec.` prefix.
  if (spec.type === serviceTypes.LoadBalancer && spec.allocateLoadBalancerNodePorts === undefined)
    errs.push(field.required("allocateLoadBalancerNodePorts"));
  errs.push(...validateLoadBalancerClassField(undefined, svc));
  errs.push(...validateServiceExternalTrafficPolicy(svc));
  errs.push(...validateServiceInternalTrafficFieldsValue(svc));
  errs.push(...validateServiceTrafficDistribution(svc));
  return errs;
}

/** `ValidateServiceCreate` (the same as `ValidateService`). */
export function validateServiceCreate(svc: Service): FieldErrorList {
  return validateService(svc);
}

/**
 * `ValidateServiceUpdate`: metadata update rules, the clusterIPs/ipFamilies
 * upgrade/downgrade rules, loadBalancerClass and healthCheckNodePort
 * immutability, then `validateService(new)`.
 */
export function validateServiceUpdate(svc: Service, oldSvc: Service): FieldErrorList {
  return [
    ...validateObjectMetaUpdate(svc.metadata, oldSvc.metadata),
    ...validateUpgradeDowngradeClusterIPs(oldSvc, svc),
    ...validateUpgradeDowngradeIPFamilies(oldSvc, svc),
    ...validateLoadBalancerClassField(oldSvc, svc),
    ...validateServiceExternalTrafficFieldsUpdate(oldSvc, svc),
    ...validateService(svc),
  ];
}

/** `ValidateServiceStatusUpdate`: metadata update rules and the load-balancer status. */
export function validateServiceStatusUpdate(svc: Service, oldSvc: Service): FieldErrorList {
  return [...validateObjectMetaUpdate(svc.metadata, oldSvc.metadata), ...validateLoadBalancerStatus(svc, "status.loadBalancer")];
}
