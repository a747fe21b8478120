/** The FlowSchema and PriorityLevelConfiguration tables (printers.go printFlowSchema, printPriorityLevelConfiguration). */
import type { Table } from "@servicenet/api";
import type { FlowSchema, PriorityLevelConfiguration } from "@servicenet/api/flowcontrol/v1";
import { ageColumn, column, generateTable, nameColumn, type PrintOptions, type TableHandler } from "../tablegenerator.ts";
import { translateTimestampSince } from "./time.ts";

/** NAME PRIORITYLEVEL MATCHINGPRECEDENCE DISTINGUISHERMETHOD AGE MISSINGPL. */
export const flowSchemaHandler: TableHandler<FlowSchema> = {
  columnDefinitions: [
    nameColumn(),
    column("PriorityLevel", "`name` is the name of the priority level configuration being referenced Required."),
    column(
      "MatchingPrecedence",
      "`matchingPrecedence` is used to choose among the FlowSchemas that match a given request. The chosen FlowSchema is among those with the numerically lowest (which we take to be logically highest) MatchingPrecedence.  Each MatchingPrecedence value must be ranged in [1,10000]. Note that if the precedence is not specified, it will be set to 1000 as default.",
    ),
    column(
      "DistinguisherMethod",
      "`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema. `nil` specifies that the distinguisher is disabled and thus will always be the empty string.",
    ),
    ageColumn(),
    column("MissingPL", "indicates if the referenced priority level is missing"),
  ],
  printRow: (fs, { now }) => [
    fs.metadata?.name ?? "",
    fs.spec?.priorityLevelConfiguration.name ?? "",
    fs.spec?.matchingPrecedence ?? 0,
    fs.spec?.distinguisherMethod?.type ?? "<none>",
    translateTimestampSince(fs.metadata?.creationTimestamp, now),
    // The Dangling condition's status, "?" until the config controller set it.
    fs.status?.conditions?.find((c) => c.type === "Dangling")?.status ?? "?",
  ],
};

/** NAME TYPE NOMINALCONCURRENCYSHARES QUEUES HANDSIZE QUEUELENGTHLIMIT AGE. */
export const priorityLevelConfigurationHandler: TableHandler<PriorityLevelConfiguration> = {
  columnDefinitions: [
    nameColumn(),
    column(
      "Type",
      '`type` indicates whether this priority level is subject to limitation on request execution.  A value of `"Exempt"` means that requests of this priority level are not subject to a limit (and thus are never queued) and do not detract from the capacity made available to other priority levels.  A value of `"Limited"` means that (a) requests of this priority level _are_ subject to limits and (b) some of the server\'s limited capacity is made available exclusively to this priority level. Required.',
    ),
    column(
      "NominalConcurrencyShares",
      "`nominalConcurrencyShares` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level.",
    ),
    column(
      "Queues",
      "`queues` is the number of queues for this priority level. The queues exist independently at each apiserver. The value must be positive.  Setting it to 1 effectively precludes shufflesharding and thus makes the distinguisher method of associated flow schemas irrelevant.  This field has a default value of 64.",
    ),
    column("HandSize", "`handSize` is a small positive number that configures the shuffle sharding of requests into queues."),
    column(
      "QueueLengthLimit",
      "`queueLengthLimit` is the maximum number of requests allowed to be waiting in a given queue of this priority level at a time; excess requests are rejected.  This value must be positive.  If not specified, it will be defaulted to 50.",
    ),
    ageColumn(),
  ],
  printRow: (pl, { now }) => {
    const limited = pl.spec?.limited;
    const q = limited?.limitResponse?.queuing;
    return [
      pl.metadata?.name ?? "",
      pl.spec?.type ?? "",
      limited ? (limited.nominalConcurrencyShares ?? 0) : "<none>",
      q ? (q.queues ?? 0) : "<none>",
      q ? (q.handSize ?? 0) : "<none>",
      q ? (q.queueLengthLimit ?? 0) : "<none>",
      translateTimestampSince(pl.metadata?.creationTimestamp, now),
    ];
  },
};

/** The Table the apiserver returns for flowschemas. */
export function printFlowSchemaTable(items: readonly FlowSchema[], opts: PrintOptions = {}): Table {
  return generateTable(flowSchemaHandler, items, opts);
}
