/** The ConfigMap table (printers.go printConfigMap). */
import type { ConfigMap, Table } from "@servicenet/api";
import { ageColumn, column, generateTable, nameColumn, type PrintOptions, type TableHandler } from "../tablegenerator.ts";
import { translateTimestampSince } from "./time.ts";

/** core/v1 ConfigMap{}.SwaggerDoc()["data"]. */
const dataDescription =
  "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.";

const count = (m: Record<string, string> | undefined): number => Object.keys(m ?? {}).length;

/** NAME DATA AGE; DATA counts the keys of data and binaryData (upstream's column type is "string", its cell an int64). */
export const configMapHandler: TableHandler<ConfigMap> = {
  columnDefinitions: [nameColumn(), column("Data", dataDescription), ageColumn()],
  printRow: (cm, { now }) => [
    cm.metadata?.name ?? "",
    count(cm.data) + count(cm.binaryData),
    translateTimestampSince(cm.metadata?.creationTimestamp, now),
  ],
};

/** The Table the apiserver returns for configmaps. */
export function printConfigMapTable(items: readonly ConfigMap[], opts: PrintOptions = {}): Table {
  return generateTable(configMapHandler, items, opts);
}
