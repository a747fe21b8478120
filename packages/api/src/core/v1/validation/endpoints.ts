/** `ValidateEndpoints` / `ValidateEndpointsUpdate` (legacy Endpoints). */
import { field, type FieldErrorList } from "../../../errors/index.ts";
import { isValidIP } from "../../../net/index.ts";
import { validateDNS1123Label, validateQualifiedName } from "../../../meta/v1/validation/labels.ts";
import { isValidPortNum, nameIsDNSSubdomain } from "../../../meta/v1/validation/name.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../../meta/v1/validation/object-meta.ts";
import type { EndpointAddress, EndpointPort, Endpoints } from "../endpoints.ts";
import { validateProtocol } from "./ports.ts";
import { validateEndpointIP } from "./special-ip.ts";

function validateEndpointAddress(a: EndpointAddress, path: string): FieldErrorList {
  const ipErrs = isValidIP(`${path}.ip`, a.ip);
  const errs = [...ipErrs];
  if ((a.hostname ?? "").length > 0) errs.push(...validateDNS1123Label(a.hostname!, `${path}.hostname`));
  if (a.nodeName !== undefined)
    errs.push(...nameIsDNSSubdomain(a.nodeName, false).map((m) => field.invalid(`${path}.nodeName`, a.nodeName, m)));
  // 1.33 reports a malformed IP once: the special-range check only runs on an IP that parsed.
  if (ipErrs.length === 0) errs.push(...validateEndpointIP(a.ip, `${path}.ip`));
  return errs;
}

function validateEndpointPort(p: EndpointPort, requireName: boolean, path: string): FieldErrorList {
  const errs: FieldErrorList = [];
  const name = p.name ?? "";
  if (requireName && name.length === 0) errs.push(field.required(`${path}.name`));
  else if (name.length !== 0) errs.push(...validateDNS1123Label(name, `${path}.name`));
  errs.push(...isValidPortNum(p.port).map((m) => field.invalid(`${path}.port`, p.port, m)));
  errs.push(...validateProtocol(p.protocol, `${path}.protocol`));
  if (p.appProtocol !== undefined) errs.push(...validateQualifiedName(p.appProtocol, `${path}.appProtocol`));
  return errs;
}

function validateSubsets(ep: Endpoints): FieldErrorList {
  const errs: FieldErrorList = [];
  (ep.subsets ?? []).forEach((ss, i) => {
    const p = `subsets[${i}]`;
    // Headless Services may have Endpoints without ports, but never without addresses.
    if ((ss.addresses?.length ?? 0) === 0 && (ss.notReadyAddresses?.length ?? 0) === 0) {
      errs.push(field.required(p, "must specify `addresses` or `notReadyAddresses`"));
    }
    (ss.addresses ?? []).forEach((a, j) => errs.push(...validateEndpointAddress(a, `${p}.addresses[${j}]`)));
    (ss.notReadyAddresses ?? []).forEach((a, j) => errs.push(...validateEndpointAddress(a, `${p}.notReadyAddresses[${j}]`)));
    const ports = ss.ports ?? [];
    ports.forEach((port, j) => errs.push(...validateEndpointPort(port, ports.length > 1, `${p}.ports[${j}]`)));
  });
  return errs;
}

/** `ValidateEndpoints`: metadata (namespaced, DNS subdomain) and subsets. */
export function validateEndpoints(ep: Endpoints): FieldErrorList {
  return [...validateObjectMeta(ep.metadata, { namespaced: true }), ...validateSubsets(ep)];
}

/** `ValidateEndpointsUpdate`: metadata update rules and subsets. */
export function validateEndpointsUpdate(ep: Endpoints, oldEp: Endpoints): FieldErrorList {
  return [...validateObjectMetaUpdate(ep.metadata, oldEp.metadata), ...validateSubsets(ep)];
}
