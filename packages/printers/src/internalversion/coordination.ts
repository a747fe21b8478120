/** The Lease table (printers.go printLease). */
import type { Lease, Table } from "@servicenet/api";
import { ageColumn, column, generateTable, nameColumn, type PrintOptions, type TableHandler } from "../tablegenerator.ts";
import { translateTimestampSince } from "./time.ts";

/** NAME HOLDER AGE. */
export const leaseHandler: TableHandler<Lease> = {
  columnDefinitions: [
    nameColumn(),
    column("Holder", "holderIdentity contains the identity of the holder of a current lease."),
    ageColumn(),
  ],
  printRow: (l, { now }) => [
    l.metadata?.name ?? "",
    l.spec?.holderIdentity ?? "",
    translateTimestampSince(l.metadata?.creationTimestamp, now),
  ],
};

/** The Table the apiserver returns for leases. */
export function printLeaseTable(items: readonly Lease[], opts: PrintOptions = {}): Table {
  return generateTable(leaseHandler, items, opts);
}
