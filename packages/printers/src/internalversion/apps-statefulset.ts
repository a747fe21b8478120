/** The StatefulSet and ControllerRevision tables (pkg/printers/internalversion/printers.go printStatefulSet, printControllerRevision). */
import type { ControllerRevision, StatefulSet, Table } from "@servicenet/api";
import { ageColumn, column, generateTable, nameColumn, type PrintOptions, type TableHandler } from "../tablegenerator.ts";
import { layoutContainerCells } from "./apps.ts";
import { translateTimestampSince } from "./time.ts";

/** NAME READY AGE, wide: CONTAINERS IMAGES. */
export const statefulSetHandler: TableHandler<StatefulSet> = {
  columnDefinitions: [
    nameColumn(),
    column("Ready", "Number of the pod with ready state"),
    ageColumn(),
    column("Containers", "Names of each container in the template.", { priority: 1 }),
    column("Images", "Images referenced by each container in the template.", { priority: 1 }),
  ],
  printRow: (sts, { wide, now }) => {
    const cells: unknown[] = [
      sts.metadata?.name ?? "",
      `${sts.status?.readyReplicas ?? 0}/${sts.spec?.replicas ?? 0}`,
      translateTimestampSince(sts.metadata?.creationTimestamp, now),
    ];
    if (wide) cells.push(...layoutContainerCells(sts.spec?.template?.spec?.containers ?? []));
    return cells;
  },
};

/** The Table the apiserver returns for statefulsets. */
export function printStatefulSetTable(items: readonly StatefulSet[], opts: PrintOptions = {}): Table {
  return generateTable(statefulSetHandler, items, opts);
}

/** `formatResourceName` with the kind: `statefulset.apps/web` (GroupKind.String lower-cased). */
function controllerName(cr: ControllerRevision): string {
  const ref = cr.metadata?.ownerReferences?.find((r) => r.controller === true);
  if (ref === undefined) return "<none>";
  const slash = ref.apiVersion.indexOf("/");
  const group = slash < 0 ? "" : ref.apiVersion.slice(0, slash);
  const kind = group === "" ? ref.kind : `${ref.kind}.${group}`;
  return kind === "" ? ref.name : `${kind.toLowerCase()}/${ref.name}`;
}

/** NAME CONTROLLER REVISION AGE. */
export const controllerRevisionHandler: TableHandler<ControllerRevision> = {
  columnDefinitions: [
    nameColumn(),
    column("Controller", "Controller of the object"),
    column("Revision", "Revision indicates the revision of the state represented by Data."),
    ageColumn(),
  ],
  printRow: (cr, { now }) => [
    cr.metadata?.name ?? "",
    controllerName(cr),
    cr.revision ?? 0,
    translateTimestampSince(cr.metadata?.creationTimestamp, now),
  ],
};
