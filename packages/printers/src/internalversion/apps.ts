/** The apps/v1 tables (pkg/printers/internalversion/printers.go printDeployment, printReplicaSet). */
import { labelSelectorString, type Container, type Deployment, type ReplicaSet, type Table } from "@servicenet/api";
import { ageColumn, column, generateTable, nameColumn, type PrintOptions, type TableHandler } from "../tablegenerator.ts";
import { translateTimestampSince } from "./time.ts";

const containersDescription = "Names of each container in the template.";
const imagesDescription = "Images referenced by each container in the template.";

/** layoutContainerCells: the template's container names and images, comma-separated. */
export function layoutContainerCells(containers: readonly Container[]): [string, string] {
  return [containers.map((c) => c.name).join(","), containers.map((c) => c.image ?? "").join(",")];
}

/** NAME READY UP-TO-DATE AVAILABLE AGE, wide: CONTAINERS IMAGES SELECTOR. */
export const deploymentHandler: TableHandler<Deployment> = {
  columnDefinitions: [
    nameColumn(),
    column("Ready", "Number of the pod with ready state"),
    column("Up-to-date", "Total number of non-terminating pods targeted by this deployment that have the desired template spec."),
    column("Available", "Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment."),
    ageColumn(),
    column("Containers", containersDescription, { priority: 1 }),
    column("Images", imagesDescription, { priority: 1 }),
    column(
      "Selector",
      "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.",
      { priority: 1 },
    ),
  ],
  printRow: (d, { wide, now }) => {
    const status = d.status ?? {};
    const cells: unknown[] = [
      d.metadata?.name ?? "",
      `${status.readyReplicas ?? 0}/${d.spec?.replicas ?? 0}`,
      status.updatedReplicas ?? 0,
      status.availableReplicas ?? 0,
      translateTimestampSince(d.metadata?.creationTimestamp, now),
    ];
    if (wide) cells.push(...layoutContainerCells(d.spec?.template?.spec?.containers ?? []), labelSelectorString(d.spec?.selector));
    return cells;
  },
};

/** The Table the apiserver returns for deployments. */
export function printDeploymentTable(items: readonly Deployment[], opts: PrintOptions = {}): Table {
  return generateTable(deploymentHandler, items, opts);
}

/** NAME DESIRED CURRENT READY AGE, wide: CONTAINERS IMAGES SELECTOR. */
export const replicaSetHandler: TableHandler<ReplicaSet> = {
  columnDefinitions: [
    nameColumn(),
    column(
      "Desired",
      "Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset",
      { type: "integer" },
    ),
    column(
      "Current",
      "Replicas is the most recently observed number of non-terminating pods. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset",
      { type: "integer" },
    ),
    column("Ready", "The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.", { type: "integer" }),
    ageColumn(),
    column("Containers", containersDescription, { priority: 1 }),
    column("Images", imagesDescription, { priority: 1 }),
    column(
      "Selector",
      "Selector is a label query over pods that should match the replica count. If the selector is empty, it is defaulted to the labels present on the pod template. Label keys and values that must match in order to be controlled by this replica set. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
      { priority: 1 },
    ),
  ],
  printRow: (rs, { wide, now }) => {
    const cells: unknown[] = [
      rs.metadata?.name ?? "",
      rs.spec?.replicas ?? 0,
      rs.status?.replicas ?? 0,
      rs.status?.readyReplicas ?? 0,
      translateTimestampSince(rs.metadata?.creationTimestamp, now),
    ];
    if (wide) cells.push(...layoutContainerCells(rs.spec?.template?.spec?.containers ?? []), labelSelectorString(rs.spec?.selector));
    return cells;
  },
};

/** The Table the apiserver returns for replicasets. */
export function printReplicaSetTable(items: readonly ReplicaSet[], opts: PrintOptions = {}): Table {
  return generateTable(replicaSetHandler, items, opts);
}
