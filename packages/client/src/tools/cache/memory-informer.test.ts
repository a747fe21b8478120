import { describe, expect, it } from "vitest";
import { MemoryInformer } from "./memory-informer.ts";

interface Obj {
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
}
const obj = (name: string, app: string): Obj => ({ metadata: { name, namespace: "ns", labels: { app } } });

describe("MemoryInformer", () => {
  it("keeps its indexes current through set and remove, and fires the handlers", () => {
    const inf = new MemoryInformer<Obj>([obj("a", "web")], true, { app: (o) => [o.metadata.labels?.app ?? ""] });
    const seen: string[] = [];
    inf.addEventHandler({
      onAdd: (o) => seen.push(`add ${o.metadata.name}`),
      onUpdate: (_o, n) => seen.push(`update ${n.metadata.name}`),
      onDelete: (o) => seen.push(`delete ${o.metadata.name}`),
    });
    inf.set(obj("b", "web"));
    inf.set(obj("a", "db"));
    expect(inf.byIndex("app", "web").map((o) => o.metadata.name)).toEqual(["b"]);
    expect(inf.byIndex("app", "db").map((o) => o.metadata.name)).toEqual(["a"]);
    inf.remove("ns/b");
    expect(inf.byIndex("app", "web")).toEqual([]);
    expect(seen).toEqual(["add a", "add b", "update a", "delete b"]);
    expect(() => inf.byIndex("nope", "x")).toThrow("Index with name nope does not exist");
  });
});
