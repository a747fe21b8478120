/**
 * TablePrinter against what real kubectl 1.33 printed for `get svc -w` and
 * `get svc --watch-only -o wide` while a Service was created, labelled and
 * another deleted (captured from the binary against the servicenet
 * apiserver): widths grow with a wider event row and never shrink back.
 */
import type { Table } from "@servicenet/api";
import { printServiceTable } from "@servicenet/printers";
import { describe, expect, it } from "vitest";
import { TablePrinter } from "./render.ts";

const columns = printServiceTable([], { wide: true }).columnDefinitions;
const row = (cells: string[]) => ({ cells });
const table = (rows: string[][], withColumns = true): Table => ({
  kind: "Table",
  apiVersion: "meta.k8s.io/v1",
  metadata: {},
  columnDefinitions: withColumns ? columns : [],
  rows: rows.map(row),
});

const initial = [
  ["kubernetes", "ClusterIP", "10.96.0.1", "<none>", "443/TCP", "25s", "<none>"],
  ["web", "ClusterIP", "10.96.144.10", "<none>", "80/TCP", "7s", "app=web"],
  ["web2", "ClusterIP", "10.96.81.192", "<none>", "81/TCP", "7s", "<none>"],
];
const events = [
  ["longname-service-abcdef", "ClusterIP", "10.96.104.154", "<none>", "8080/TCP", "0s", "app=longname-service-abcdef"],
  ["web", "ClusterIP", "10.96.144.10", "<none>", "80/TCP", "8s", "app=web"],
  ["web2", "ClusterIP", "10.96.81.192", "<none>", "81/TCP", "9s", "<none>"],
  ["web", "ClusterIP", "10.96.144.10", "<none>", "80/TCP", "9s", "app=web"],
];

describe("TablePrinter (get -w)", () => {
  it("kubectl get svc -w", () => {
    const p = new TablePrinter();
    // Later watch events carry no column definitions; the printer reuses the last ones.
    const out = [p.print(table(initial)), ...events.map((e, i) => p.print(table([e], i === 0)))].join("");
    expect(out).toBe(`NAME         TYPE        CLUSTER-IP     EXTERNAL-IP   PORT(S)   AGE
kubernetes   ClusterIP   10.96.0.1      <none>        443/TCP   25s
web          ClusterIP   10.96.144.10   <none>        80/TCP    7s
web2         ClusterIP   10.96.81.192   <none>        81/TCP    7s
longname-service-abcdef   ClusterIP   10.96.104.154   <none>        8080/TCP   0s
web                       ClusterIP   10.96.144.10    <none>        80/TCP     8s
web2                      ClusterIP   10.96.81.192    <none>        81/TCP     9s
web                       ClusterIP   10.96.144.10    <none>        80/TCP     9s
`);
  });

  it("kubectl get svc --watch-only -o wide: the header comes with the first event", () => {
    const p = new TablePrinter({ wide: true });
    const out = events.map((e) => p.print(table([e]))).join("");
    expect(out).toBe(`NAME                      TYPE        CLUSTER-IP      EXTERNAL-IP   PORT(S)    AGE   SELECTOR
longname-service-abcdef   ClusterIP   10.96.104.154   <none>        8080/TCP   0s    app=longname-service-abcdef
web                       ClusterIP   10.96.144.10    <none>        80/TCP     8s    app=web
web2                      ClusterIP   10.96.81.192    <none>        81/TCP     9s    <none>
web                       ClusterIP   10.96.144.10    <none>        80/TCP     9s    app=web
`);
  });

  it("an empty initial list prints nothing, not even a header", () => {
    expect(new TablePrinter().print(table([]))).toBe("");
  });
});
