/** The PodDisruptionBudget table (pkg/printers/internalversion/printers.go printPodDisruptionBudget). */
import type { Table } from "@servicenet/api";
import type { PodDisruptionBudget } from "@servicenet/api/policy/v1";
import { ageColumn, column, generateTable, nameColumn, type PrintOptions, type TableHandler } from "../tablegenerator.ts";
import { translateTimestampSince } from "./time.ts";

/** NAME MIN AVAILABLE MAX UNAVAILABLE ALLOWED DISRUPTIONS AGE; an unset bound prints `N/A`. */
export const podDisruptionBudgetHandler: TableHandler<PodDisruptionBudget> = {
  columnDefinitions: [
    nameColumn(),
    column("Min Available", "The minimum number of pods that must be available."),
    column("Max Unavailable", "The maximum number of pods that may be unavailable."),
    column("Allowed Disruptions", "Calculated number of pods that may be disrupted at this time.", { type: "integer" }),
    ageColumn(),
  ],
  printRow: (pdb, { now }) => [
    pdb.metadata?.name ?? "",
    pdb.spec?.minAvailable !== undefined ? String(pdb.spec.minAvailable) : "N/A",
    pdb.spec?.maxUnavailable !== undefined ? String(pdb.spec.maxUnavailable) : "N/A",
    pdb.status?.disruptionsAllowed ?? 0,
    translateTimestampSince(pdb.metadata?.creationTimestamp, now),
  ],
};

/** The Table the apiserver returns for poddisruptionbudgets. */
export function printPodDisruptionBudgetTable(items: readonly PodDisruptionBudget[], opts: PrintOptions = {}): Table {
  return generateTable(podDisruptionBudgetHandler, items, opts);
}
