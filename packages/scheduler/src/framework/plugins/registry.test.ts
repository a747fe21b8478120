import type { Pod, Service } from "@servicenet/api";
import { GenericLister, MemoryInformer } from "@servicenet/client/tools/cache";
import { describe, expect, it } from "vitest";
import { serviceSelector } from "./registry.ts";

const svc = (namespace: string, name: string, selector?: Record<string, string>): Service => ({
  metadata: { namespace, name },
  spec: { ...(selector ? { selector } : {}) },
});
const pod = (namespace: string, labels: Record<string, string>): Pod => ({
  metadata: { namespace, name: "p", labels },
  spec: { containers: [] },
});

/** A Service cache whose whole-cache list fails: the selector must read one namespace through the lister. */
class NoScan extends MemoryInformer<Service> {
  override list(): readonly Service[] {
    throw new Error("scanned every Service");
  }
}

// helper.DefaultSelector / GetPodServices: the Services of the Pod's namespace that select it,
// their selectors merged; selector-less Services select nothing.
describe("serviceSelector", () => {
  const services = new NoScan([
    svc("a", "web", { app: "web" }),
    svc("a", "tier", { tier: "front" }),
    svc("a", "other", { app: "db" }),
    svc("a", "headless"),
    svc("b", "web-b", { app: "web", zone: "x" }),
  ]);
  const selectorOf = serviceSelector(new GenericLister(services));

  it.each<[string, Pod, Record<string, string> | undefined]>([
    ["merges the matching Services of the pod's namespace", pod("a", { app: "web", tier: "front" }), { app: "web", tier: "front" }],
    ["ignores a Service of another namespace with the same labels", pod("b", { app: "web", tier: "front" }), undefined],
    ["matches in the other namespace only there", pod("b", { app: "web", zone: "x" }), { app: "web", zone: "x" }],
    ["nothing matches", pod("a", { app: "cache" }), undefined],
  ])("%s", (_name, p, want) => {
    expect(selectorOf(p)).toEqual(want);
  });
});
