/**
 * The printers (@servicenet/printers) as the Table builder of @servicenet/testing's fake apiserver, for the
 * CLI and differential tests (kube-apiserver's TableConvertor prints with Wide=true and lets
 * the client hide columns). Structurally typed so shipped code never imports the test package.
 */
import type { PartialObjectMetadata, Table } from "@servicenet/api";
import {
  printClusterRoleBindingTable,
  printClusterRoleTable,
  printEndpointSliceTable,
  printEndpointsTable,
  printEventTable,
  printIPAddressTable,
  printNamespaceTable,
  printNodeTable,
  printPodTable,
  printRoleBindingTable,
  printRoleTable,
  printServiceCIDRTable,
  printServiceTable,
  type PrintOptions,
} from "@servicenet/printers";

const printers: Record<string, (items: never[], opts: PrintOptions) => Table> = {
  services: printServiceTable,
  endpoints: printEndpointsTable,
  events: printEventTable,
  pods: printPodTable,
  nodes: printNodeTable,
  namespaces: printNamespaceTable,
  endpointslices: printEndpointSliceTable,
  servicecidrs: printServiceCIDRTable,
  ipaddresses: printIPAddressTable,
  roles: printRoleTable,
  clusterroles: printClusterRoleTable,
  rolebindings: printRoleBindingTable,
  clusterrolebindings: printClusterRoleBindingTable,
};

/** Renders `objects` of `resource` as a Table, or undefined for a resource without a printer. */
export function printerTables(
  resource: { name: string },
  objects: PartialObjectMetadata[],
  opts: { now: Date; includeObject: "None" | "Object" | "Metadata"; listMeta?: { resourceVersion: string } },
): Table | undefined {
  const print = printers[resource.name];
  if (print === undefined) return undefined;
  const includeObject = opts.includeObject === "None" ? "None" : "Object";
  return print(objects as never[], { wide: true, now: opts.now, includeObject, ...(opts.listMeta ? { listMeta: opts.listMeta } : {}) });
}
