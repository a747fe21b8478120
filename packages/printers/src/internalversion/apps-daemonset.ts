/** The DaemonSet table (pkg/printers/internalversion/printers.go printDaemonSet). */
import { labelSelectorString, type DaemonSet, type Table } from "@servicenet/api";
import { formatLabels } from "../strings.ts";
import { ageColumn, column, generateTable, nameColumn, type PrintOptions, type TableHandler } from "../tablegenerator.ts";
import { layoutContainerCells } from "./apps.ts";
import { translateTimestampSince } from "./time.ts";

const more = "More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/";

/** NAME DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE SELECTOR AGE, wide: CONTAINERS IMAGES SELECTOR. */
export const daemonSetHandler: TableHandler<DaemonSet> = {
  columnDefinitions: [
    nameColumn(),
    column(
      "Desired",
      `The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). ${more}`,
      {
        type: "integer",
      },
    ),
    column("Current", `The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. ${more}`, {
      type: "integer",
    }),
    column("Ready", "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.", {
      type: "integer",
    }),
    column("Up-to-date", "The total number of nodes that are running updated daemon pod", { type: "integer" }),
    column(
      "Available",
      "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)",
      { type: "integer" },
    ),
    column(
      "Node Selector",
      "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/",
    ),
    ageColumn(),
    column("Containers", "Names of each container in the template.", { priority: 1 }),
    column("Images", "Images referenced by each container in the template.", { priority: 1 }),
    column(
      "Selector",
      "A label query over pods that are managed by the daemon set. Must match in order to be controlled. If empty, defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
      { priority: 1 },
    ),
  ],
  printRow: (ds, { wide, now }) => {
    const s = ds.status;
    const nodeSelector = (ds.spec?.template?.spec as Record<string, unknown> | undefined)?.["nodeSelector"] as
      Record<string, string> | undefined;
    const cells: unknown[] = [
      ds.metadata?.name ?? "",
      s?.desiredNumberScheduled ?? 0,
      s?.currentNumberScheduled ?? 0,
      s?.numberReady ?? 0,
      s?.updatedNumberScheduled ?? 0,
      s?.numberAvailable ?? 0,
      formatLabels(nodeSelector),
      translateTimestampSince(ds.metadata?.creationTimestamp, now),
    ];
    if (wide) cells.push(...layoutContainerCells(ds.spec?.template?.spec?.containers ?? []), labelSelectorString(ds.spec?.selector));
    return cells;
  },
};

/** The Table the apiserver returns for daemonsets. */
export function printDaemonSetTable(items: readonly DaemonSet[], opts: PrintOptions = {}): Table {
  return generateTable(daemonSetHandler, items, opts);
}
