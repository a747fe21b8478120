/** `proxy.ServicePortName`: a Service port identified by namespace, name, port name and protocol. */

export interface NamespacedName {
  readonly namespace: string;
  readonly name: string;
}

export interface ServicePortName extends NamespacedName {
  readonly port: string;
  readonly protocol: string;
}

/** `NamespacedName.String()`: "ns/name". */
export function namespacedNameString(n: NamespacedName): string {
  return `${n.namespace}/${n.name}`;
}

/** `ServicePortName.String()`: "ns/name:port", or "ns/name" for an unnamed port. */
export function servicePortNameString(spn: ServicePortName): string {
  return spn.port === "" ? `${spn.namespace}/${spn.name}` : `${spn.namespace}/${spn.name}:${spn.port}`;
}

/**
 * Map key of a ServicePortName. Upstream keys maps by the struct, so the
 * protocol is part of the identity; the String() form alone is not.
 */
export function servicePortKey(spn: ServicePortName): string {
  return `${spn.namespace}/${spn.name}:${spn.port}/${spn.protocol}`;
}
