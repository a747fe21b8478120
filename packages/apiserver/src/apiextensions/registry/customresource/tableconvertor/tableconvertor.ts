/**
 * The Table of a custom resource (apiextensions-apiserver pkg/registry/customresource/
 * tableconvertor/tableconvertor.go): NAME, then the version's additionalPrinterColumns (by
 * default one `Age` column on .metadata.creationTimestamp), cells typed as cellForJSONValue types them.
 */
import type { CustomResourceColumnDefinition } from "@servicenet/api/apiextensions/v1";
import {
  creationTimestampDescription,
  nameColumn,
  translateTimestampSince,
  type RowOptions,
  type TableHandler,
} from "@servicenet/printers";
import type { KubeObject } from "../../../../storage/index.ts";
import { findFirst, parseSimpleJSONPath } from "./jsonpath.ts";
import { stringifyJSON } from "../../../../util/json/json.ts";

/** The column apiextensions' defaulting gives a version without additionalPrinterColumns. */
export const defaultAgeColumn: CustomResourceColumnDefinition = {
  name: "Age",
  type: "date",
  jsonPath: ".metadata.creationTimestamp",
  description: creationTimestampDescription,
};

/** cellForJSONValue: the cell of a non-string column; null when the value has the wrong type. */
function cellForJSONValue(type: string, value: unknown, now: Date): unknown {
  switch (type) {
    case "integer":
      // An int64 beyond a double (a bigint) is written as its digits.
      return (typeof value === "number" && Number.isInteger(value)) || typeof value === "bigint" ? value : null;
    case "number":
      // float64(int64): the double nearest the integer.
      return typeof value === "number" ? value : typeof value === "bigint" ? Number(value) : null;
    case "boolean":
      return typeof value === "boolean" ? value : null;
    case "date":
      return typeof value === "string" && !Number.isNaN(Date.parse(value)) ? translateTimestampSince(value, now) : null;
    default:
      return null;
  }
}

/** A string column prints the value as jsonpath's PrintResults does (scalars bare, the rest as JSON). */
function stringCell(value: unknown): string {
  return typeof value === "string" ? value : stringifyJSON(value);
}

/** The Table handler of one CRD version's columns. */
export function newTableConvertor(columns: readonly CustomResourceColumnDefinition[] | undefined): TableHandler<KubeObject> {
  const cols = columns === undefined || columns.length === 0 ? [defaultAgeColumn] : columns;
  const paths = cols.map((c) => parseSimpleJSONPath(c.jsonPath));
  return {
    columnDefinitions: [
      nameColumn(),
      ...cols.map((c) => ({
        name: c.name,
        type: c.type,
        format: c.format ?? "",
        description: c.description ?? "",
        priority: c.priority ?? 0,
      })),
    ],
    printRow: (obj: KubeObject, o: RowOptions) => {
      const cells: unknown[] = [obj.metadata.name ?? ""];
      cols.forEach((c, i) => {
        if ((c.priority ?? 0) > 0 && !o.wide) return;
        const steps = paths[i];
        const value = steps === undefined ? undefined : findFirst(obj, steps);
        if (value === undefined) cells.push(null);
        else cells.push(c.type === "string" ? stringCell(value) : cellForJSONValue(c.type, value, o.now));
      });
      return cells;
    },
  };
}
