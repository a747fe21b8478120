/** Port validation shared by Services, Endpoints and Pods (`validateServicePort`, `ValidatePortNumOrName`). */
import { field, type FieldErrorList } from "../../../errors/index.ts";
import { isValidPortName, isValidPortNum } from "../../../meta/v1/validation/name.ts";
import { validateDNS1123Label, validateQualifiedName } from "../../../meta/v1/validation/labels.ts";
import type { IntOrString, ServicePort } from "../service.ts";

/** Sorted, as upstream's `sets.List` prints them. */
export const supportedPortProtocols = ["SCTP", "TCP", "UDP"] as const;

/** `protocol`: Required when empty, else one of SCTP/TCP/UDP. */
export function validateProtocol(protocol: string | undefined, path: string): FieldErrorList {
  if (!protocol) return [field.required(path)];
  return (supportedPortProtocols as readonly string[]).includes(protocol)
    ? []
    : [field.notSupported(path, protocol, supportedPortProtocols)];
}

/** `ValidatePortNumOrName`: a number in 1..65535 or an IANA service name. */
export function validatePortNumOrName(port: IntOrString | undefined, path: string): FieldErrorList {
  if (typeof port === "string") return isValidPortName(port).map((m) => field.invalid(path, port, m));
  const n = port ?? 0;
  return isValidPortNum(n).map((m) => field.invalid(path, n, m));
}

/**
 * `validateServicePort`: name (required when the Service has several ports,
 * DNS-1123 label, unique), port range, protocol, targetPort, appProtocol.
 * `seenNames` accumulates names across the ports of one Service.
 */
export function validateServicePort(sp: ServicePort, requireName: boolean, seenNames: Set<string>, path: string): FieldErrorList {
  const errs: FieldErrorList = [];
  const name = sp.name ?? "";
  if (requireName && name.length === 0) {
    errs.push(field.required(`${path}.name`));
  } else if (name.length !== 0) {
    errs.push(...validateDNS1123Label(name, `${path}.name`));
    if (seenNames.has(name)) errs.push(field.duplicate(`${path}.name`, name));
    else seenNames.add(name);
  }
  errs.push(...isValidPortNum(sp.port).map((m) => field.invalid(`${path}.port`, sp.port, m)));
  errs.push(...validateProtocol(sp.protocol, `${path}.protocol`));
  errs.push(...validatePortNumOrName(sp.targetPort, `${path}.targetPort`));
  // In the v1 API a targetPort different from port is tolerated on headless Services (upstream keeps it for compatibility).
  if (sp.appProtocol !== undefined) errs.push(...validateQualifiedName(sp.appProtocol, `${path}.appProtocol`));
  return errs;
}
