/**
 * Table printing building blocks (pkg/printers/tablegenerator.go, apimachinery duration.HumanDuration).
 * Cells are rendered server-side; kubectl only lays them out.
 */
import type { TableColumnDefinition } from "@servicenet/api";
import type { KubeObject } from "../../storage/index.ts";

export interface TablePrinter {
  columns: TableColumnDefinition[];
  /** One row's cells, in column order. */
  cells(obj: KubeObject, now: Date): unknown[];
}

const descriptions: Record<string, string> = {
  Name: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names",
  Age: "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
};

/** A column definition; `priority` 1 columns show only with `-o wide`. */
export function col(name: string, type = "string", priority = 0, description = "", format = ""): TableColumnDefinition {
  return { name, type, format: name === "Name" ? "name" : format, description: description || descriptions[name] || name, priority };
}

/** Upstream `duration.HumanDuration`. */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.floor(hours / 24) % 365;
    return dy === 0 ? `${Math.floor(hours / 24 / 365)}y` : `${Math.floor(hours / 24 / 365)}y${dy}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

/** Upstream `translateTimestampSince`: "<unknown>" for a missing timestamp. */
export function age(ts: unknown, now: Date): string {
  if (typeof ts !== "string" || ts === "") return "<unknown>";
  const t = Date.parse(ts);
  return Number.isNaN(t) ? "<unknown>" : humanDuration(now.getTime() - t);
}

/** Property access on loosely typed JSON. */
export function get(obj: unknown, ...path: string[]): unknown {
  let cur = obj;
  for (const p of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function str(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === undefined || v === null) return "";
  return typeof v === "number" || typeof v === "boolean" ? String(v) : JSON.stringify(v);
}

/** `a=b,c=d` sorted by key, "<none>" when empty (upstream labels.FormatLabels). */
export function formatLabels(m: unknown): string {
  if (m === null || typeof m !== "object") return "<none>";
  const entries = Object.entries(m as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? "<none>" : entries.map(([k, v]) => `${k}=${str(v)}`).join(",");
}

/** The generic printer every resource without its own gets: Name, Age. */
export const defaultPrinter: TablePrinter = {
  columns: [col("Name"), col("Age")],
  cells: (o, now) => [o.metadata.name ?? "", age(o.metadata.creationTimestamp, now)],
};
