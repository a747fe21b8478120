import { describe, expect, it } from "vitest";
import { nodeValues } from "./fieldpath.ts";
import type { JSONObject } from "./json-value.ts";
import { compareObjects } from "./managed-fields.ts";

const service = (labels: JSONObject, annotations: JSONObject, ports: JSONObject[]): JSONObject => ({
  apiVersion: "v1",
  kind: "Service",
  metadata: { name: "s", labels, annotations },
  spec: { ports, selector: { app: "s" } },
});

describe("nodeValues with a twin", () => {
  const before = service({ a: "1", b: "2" }, { x: "1" }, [{ port: 80, protocol: "TCP" }]);
  const after = service({ a: "1", b: "3" }, { x: "1" }, [{ port: 80, protocol: "TCP" }]);

  it("leaves out members equal to the twin's, keeping the path to what differs", () => {
    expect([...nodeValues("Service", after, "status", before).keys()]).toEqual([
      '["f:metadata","f:labels"]',
      '["f:metadata","f:labels","f:b"]',
    ]);
  });

  it("walks everything without a twin", () => {
    expect(nodeValues("Service", after, "status").size).toBe(11);
  });

  it("pairs no list items by place: a changed list is walked whole", () => {
    const moved = service({ a: "1", b: "2" }, { x: "1" }, [
      { port: 81, protocol: "TCP" },
      { port: 80, protocol: "TCP" },
    ]);
    const keys = [...nodeValues("Service", moved, "status", before).keys()];
    expect(keys).toContain('["f:spec","f:ports","k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}","f:port"]');
    expect(keys).toContain('["f:spec","f:ports","k:{\\"port\\":81,\\"protocol\\":\\"TCP\\"}","f:port"]');
  });
});

describe("compareObjects of a near-limit object", () => {
  it("finds the one changed annotation among 6,000 labels", () => {
    const labels = Object.fromEntries(Array.from({ length: 6_000 }, (_, i) => [`l${i.toString(36)}`, "v"]));
    const c = compareObjects("Service", service(labels, { round: "p0" }, []), service({ ...labels }, { round: "p1" }, []));
    expect([...c.added, ...c.removed]).toEqual([]);
    expect([...c.modified]).toEqual(['["f:metadata","f:annotations","f:round"]']);
  });
});
