/** The PriorityClass table (pkg/printers/internalversion/printers.go printPriorityClass). */
import type { Table } from "@servicenet/api";
import type { PriorityClass } from "@servicenet/api/scheduling/v1";
import { ageColumn, column, generateTable, nameColumn, type PrintOptions, type TableHandler } from "../tablegenerator.ts";
import { translateTimestampSince } from "./time.ts";

/** NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY (k8s.io/api/scheduling/v1 SwaggerDoc). */
export const priorityClassHandler: TableHandler<PriorityClass> = {
  columnDefinitions: [
    nameColumn(),
    column(
      "Value",
      "value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.",
      { type: "integer" },
    ),
    column(
      "Global-Default",
      "globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.",
      { type: "boolean" },
    ),
    ageColumn(),
    column(
      "PreemptionPolicy",
      "preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.",
    ),
  ],
  printRow: (pc, { now }) => [
    pc.metadata?.name ?? "",
    pc.value ?? 0,
    pc.globalDefault ?? false,
    translateTimestampSince(pc.metadata?.creationTimestamp, now),
    pc.preemptionPolicy ?? "",
  ],
};

/** The Table the apiserver returns for priorityclasses. */
export function printPriorityClassTable(items: readonly PriorityClass[], opts: PrintOptions = {}): Table {
  return generateTable(priorityClassHandler, items, opts);
}
