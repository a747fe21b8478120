/**
 * A minimal `ValidatePod`: metadata, containers (name, image, ports) and the
 * IP lists of the status (`validatePodIPs`, `validateHostIPs`). The rest of
 * PodSpec validation (volumes, security, resources...) is out of scope.
 */
import { field, type FieldErrorList } from "../../../errors/index.ts";
import { isDualStackIPStrings, isValidIP } from "../../../net/index.ts";
import { validateDNS1123Label } from "../../../meta/v1/validation/labels.ts";
import { isValidPortName, isValidPortNum } from "../../../meta/v1/validation/name.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../../meta/v1/validation/object-meta.ts";
import type { Binding } from "../binding.ts";
import type { Pod, PodSpec } from "../pod.ts";
import { validateProtocol } from "./ports.ts";

/** The containers of a PodSpec at `specPath` (`spec`, `spec.template.spec`): names, images, ports. */
export function validatePodSpecContainers(spec: PodSpec, specPath: string): FieldErrorList {
  const containers = spec.containers;
  if (containers.length === 0) return [field.required(`${specPath}.containers`)];
  const errs: FieldErrorList = [];
  const names = new Set<string>();
  containers.forEach((c, i) => {
    const p = `${specPath}.containers[${i}]`;
    if (c.name.length === 0) errs.push(field.required(`${p}.name`));
    else errs.push(...validateDNS1123Label(c.name, `${p}.name`));
    if (names.has(c.name)) errs.push(field.duplicate(`${p}.name`, c.name));
    names.add(c.name);
    if ((c.image ?? "").length === 0) errs.push(field.required(`${p}.image`));
    (c.ports ?? []).forEach((port, j) => {
      const pp = `${p}.ports[${j}]`;
      if ((port.name ?? "").length > 0) errs.push(...isValidPortName(port.name!).map((m) => field.invalid(`${pp}.name`, port.name, m)));
      errs.push(...isValidPortNum(port.containerPort).map((m) => field.invalid(`${pp}.containerPort`, port.containerPort, m)));
      if ((port.hostPort ?? 0) !== 0)
        errs.push(...isValidPortNum(port.hostPort!).map((m) => field.invalid(`${pp}.hostPort`, port.hostPort, m)));
      errs.push(...validateProtocol(port.protocol, `${pp}.protocol`));
    });
  });
  return errs;
}

/**
 * One IP list of the status (podIPs or hostIPs): valid IPs, at most one per
 * family, no duplicates, and entry 0 equal to the singular field.
 */
function validateIPList(
  list: ReadonlyArray<{ ip: string }>,
  single: string | undefined,
  listPath: string,
  singleName: string,
): FieldErrorList {
  const errs: FieldErrorList = [];
  list.forEach((e, i) => errs.push(...isValidIP(`${listPath}[${i}]`, e.ip)));
  if (list.length > 1) {
    const ips = list.map((e) => e.ip);
    if (!isDualStackIPStrings(ips) || ips.length > 2)
      errs.push(field.invalid(listPath, list, "may specify no more than one IP for each IP family"));
    const seen = new Set<string>();
    list.forEach((e, i) => {
      if (seen.has(e.ip)) errs.push(field.duplicate(`${listPath}[${i}]`, e));
      seen.add(e.ip);
    });
  }
  const first = list[0];
  if (first !== undefined && first.ip !== (single ?? ""))
    errs.push(field.invalid(`${listPath}[0].ip`, first.ip, `must be equal to \`${singleName}\``));
  return errs;
}

/** `validatePodIPs` and `validateHostIPs` of the status. */
function validateStatusIPs(pod: Pod): FieldErrorList {
  const status = pod.status;
  return [
    ...validateIPList(status?.podIPs ?? [], status?.podIP, "status.podIPs", "podIP"),
    ...validateIPList(status?.hostIPs ?? [], status?.hostIP, "status.hostIPs", "hostIP"),
  ];
}

/** Minimal `ValidatePod` (create): metadata, containers, status IP lists. */
export function validatePod(pod: Pod): FieldErrorList {
  return [
    ...validateObjectMeta(pod.metadata, { namespaced: true }),
    ...validatePodSpecContainers(pod.spec, "spec"),
    ...validateStatusIPs(pod),
  ];
}

/**
 * `ValidatePodStatusUpdate` (the subset of pkg/apis/core/validation/validation.go the status
 * subresource needs): metadata update rules, spec.nodeName untouched, and the status IP lists
 * (`validatePodIPs`, `validateHostIPs`): valid IPs, at most one per family, the first equal to
 * the singular field.
 */
export function validatePodStatusUpdate(pod: Pod, old: Pod): FieldErrorList {
  const errs: FieldErrorList = [...validateObjectMetaUpdate(pod.metadata, old.metadata)];
  if ((pod.spec.nodeName ?? "") !== (old.spec.nodeName ?? "")) errs.push(field.forbidden("status.nodeName", "may not be changed directly"));
  return [...errs, ...validateStatusIPs(pod)];
}

/** `ValidatePodBinding`: the target is a Node (kind empty or "Node") with a name. */
export function validatePodBinding(binding: Binding): FieldErrorList {
  const errs: FieldErrorList = [];
  const kind = binding.target.kind ?? "";
  if (kind !== "" && kind !== "Node") errs.push(field.notSupported("target.kind", kind, ["Node", "<empty>"]));
  if ((binding.target.name ?? "") === "") errs.push(field.required("target.name"));
  return errs;
}
