/**
 * The RBAC tables. RoleBinding and ClusterRoleBinding are printers.go's printRoleBinding /
 * printClusterRoleBinding; Role and ClusterRole have no handler in printers.go, so kube-apiserver
 * answers with the generic store's default convertor (apiserver pkg/registry/rest/table.go
 * defaultTableConvertor: NAME and CREATED AT as RFC 3339 in UTC), which kubectl prints as is.
 */
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding, Subject, Table } from "@servicenet/api";
import {
  column,
  creationTimestampDescription,
  generateTable,
  nameColumn,
  ageColumn,
  type PrintOptions,
  type RowOptions,
  type TableHandler,
} from "../tablegenerator.ts";
import { parseTime, translateTimestampSince } from "./time.ts";

/** Go's zero time formatted with time.RFC3339. */
const zeroTimeRFC3339 = "0001-01-01T00:00:00Z";

/** `Time.UTC().Format(time.RFC3339)`: whole seconds, "Z"; a missing timestamp is Go's zero time. */
export function formatRFC3339UTC(ts: string | null | undefined): string {
  const d = parseTime(ts);
  if (d === null) return zeroTimeRFC3339;
  return d.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * The default convertor's two columns (NAME, CREATED AT of type "date"); the one handler of
 * every kind without a printers.go handler (here Role and ClusterRole).
 */
export const defaultTableHandler: TableHandler<{ metadata?: { name?: string; creationTimestamp?: string | null } | null }> = {
  columnDefinitions: [nameColumn(), column("Created At", creationTimestampDescription, { type: "date" })],
  printRow: (o) => [o.metadata?.name ?? "", formatRFC3339UTC(o.metadata?.creationTimestamp)],
};

/** NAME CREATED AT (the default convertor). */
export const roleHandler: TableHandler<Role> = defaultTableHandler;
/** NAME CREATED AT (the default convertor). */
export const clusterRoleHandler: TableHandler<ClusterRole> = defaultTableHandler;

/**
 * pkg/apis/rbac/helpers.go SubjectsStrings: users, groups, service accounts ("namespace/name")
 * and others ("kind/namespace/name"), each in the subjects' order.
 */
export function subjectsStrings(subjects: readonly Subject[] | null | undefined): {
  users: string[];
  groups: string[];
  serviceAccounts: string[];
  others: string[];
} {
  const out = { users: [] as string[], groups: [] as string[], serviceAccounts: [] as string[], others: [] as string[] };
  for (const s of subjects ?? []) {
    if (s.kind === "ServiceAccount") out.serviceAccounts.push(`${s.namespace ?? ""}/${s.name}`);
    else if (s.kind === "User") out.users.push(s.name);
    else if (s.kind === "Group") out.groups.push(s.name);
    else out.others.push(`${s.kind}/${s.namespace ?? ""}/${s.name}`);
  }
  return out;
}

type Binding = RoleBinding | ClusterRoleBinding;

/** printRoleBinding / printClusterRoleBinding: NAME ROLE AGE, wide USERS GROUPS SERVICEACCOUNTS joined by ", ". */
function printBinding(b: Binding, { wide, now }: RowOptions): unknown[] {
  const roleRef = `${b.roleRef?.kind ?? ""}/${b.roleRef?.name ?? ""}`;
  const cells: unknown[] = [b.metadata?.name ?? "", roleRef, translateTimestampSince(b.metadata?.creationTimestamp, now)];
  if (!wide) return cells;
  const s = subjectsStrings(b.subjects);
  return [...cells, s.users.join(", "), s.groups.join(", "), s.serviceAccounts.join(", ")];
}

// The descriptions are rbacv1beta1's swagger docs, as printers.go takes them.
const roleBindingRoleRef =
  "RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.";
const clusterRoleBindingRoleRef =
  "RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.";

function bindingColumns(roleRefDescription: string, of: string) {
  return [
    nameColumn(),
    column("Role", roleRefDescription),
    ageColumn(),
    column("Users", `Users in the ${of}`, { priority: 1 }),
    column("Groups", `Groups in the ${of}`, { priority: 1 }),
    column("ServiceAccounts", `ServiceAccounts in the ${of}`, { priority: 1 }),
  ];
}

/** NAME ROLE AGE, wide USERS GROUPS SERVICEACCOUNTS. */
export const roleBindingHandler: TableHandler<RoleBinding> = {
  columnDefinitions: bindingColumns(roleBindingRoleRef, "roleBinding"),
  printRow: printBinding,
};

/** NAME ROLE AGE, wide USERS GROUPS SERVICEACCOUNTS. */
export const clusterRoleBindingHandler: TableHandler<ClusterRoleBinding> = {
  columnDefinitions: bindingColumns(clusterRoleBindingRoleRef, "clusterRoleBinding"),
  printRow: printBinding,
};

/** The Table the apiserver returns for roles. */
export function printRoleTable(items: readonly Role[], opts: PrintOptions = {}): Table {
  return generateTable(roleHandler, items, opts);
}

/** The Table the apiserver returns for clusterroles. */
export function printClusterRoleTable(items: readonly ClusterRole[], opts: PrintOptions = {}): Table {
  return generateTable(clusterRoleHandler, items, opts);
}

/** The Table the apiserver returns for rolebindings. */
export function printRoleBindingTable(items: readonly RoleBinding[], opts: PrintOptions = {}): Table {
  return generateTable(roleBindingHandler, items, opts);
}

/** The Table the apiserver returns for clusterrolebindings. */
export function printClusterRoleBindingTable(items: readonly ClusterRoleBinding[], opts: PrintOptions = {}): Table {
  return generateTable(clusterRoleBindingHandler, items, opts);
}
