import { describe, expect, it } from "vitest";
import { makeNode, makePod, nodeInfos } from "../../../testing/wrappers.ts";
import { podTopologySpread } from "./scoring.ts";

describe("PodTopologySpread system default constraints", () => {
  const zone = (n: string, z: string) => makeNode(n, { labels: { "topology.kubernetes.io/zone": z } });
  const web = (name: string, node: string) => makePod(name, { nodeName: node }, { app: "web" });

  it("scores Nodes of an emptier zone higher", () => {
    const infos = nodeInfos(
      [zone("a1", "a"), zone("a2", "a"), zone("b1", "b"), zone("c1", "c")],
      [web("w1", "a1"), web("w2", "a2"), web("w3", "b1"), makePod("other", { nodeName: "c1" }, { app: "db" })],
    );
    const p = podTopologySpread(() => ({ app: "web" }));
    const pod = makePod("new", {}, { app: "web" });
    expect(p.preScore?.(pod, infos, infos)).toBe(true);
    const s = infos.map((i) => p.score(pod, i));
    p.normalize?.(s);
    const [a1, a2, b1, c1] = s;
    expect(c1).toBe(100);
    expect(b1).toBeLessThan(c1 ?? 0);
    expect(a1).toBeLessThan(b1 ?? 0);
    expect(a1).toBe(a2);
  });

  it("skips Pods no Service selects", () => {
    const infos = nodeInfos([zone("a1", "a")]);
    expect(podTopologySpread(() => undefined).preScore?.(makePod("p"), infos, infos)).toBe(false);
  });
});
