/**
 * The shared spec-and-status strategy, checked through the four kinds that configure it
 * (pkg/registry/apps/deployment/strategy_test.go, replicaset/strategy_test.go,
 * pkg/registry/flowcontrol/flowschema/strategy_test.go).
 */
import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../storage/index.ts";
import { deploymentStrategy } from "../apps/deployment/strategy.ts";
import { replicaSetStrategy } from "../apps/replicaset/strategy.ts";
import { flowSchemaStrategy } from "../flowcontrol/flowschema/strategy.ts";
import { priorityLevelConfigurationStrategy } from "../flowcontrol/prioritylevelconfiguration/strategy.ts";
import type { RESTStrategy } from "./strategy.ts";

const obj = (spec: Record<string, unknown>, extra: Partial<KubeObject> = {}): KubeObject => ({
  metadata: { name: "x", generation: 3, labels: { a: "1" }, annotations: { n: "1" } },
  spec,
  ...extra,
});

const kinds: [string, RESTStrategy, Record<string, unknown>][] = [
  ["Deployment", deploymentStrategy, {}],
  ["ReplicaSet", replicaSetStrategy, { replicas: 0 }],
  ["FlowSchema", flowSchemaStrategy, {}],
  ["PriorityLevelConfiguration", priorityLevelConfigurationStrategy, {}],
];

describe.each(kinds)("%s", (_kind, s, zeroStatus) => {
  it("PrepareForCreate drops the user's status and starts at generation 1", () => {
    const o = obj({ replicas: 1 }, { status: { replicas: 9 } });
    s.prepareForCreate(o);
    expect(o["status"]).toEqual(zeroStatus);
    expect(o.metadata.generation).toBe(1);
  });

  it("PrepareForUpdate keeps the stored status and bumps the generation only on a spec change", () => {
    const old = obj({ replicas: 1 }, { status: { observedGeneration: 3 } });
    const same = obj({ replicas: 1 }, { status: { observedGeneration: 99 } });
    s.prepareForUpdate(same, old);
    expect(same["status"]).toEqual({ observedGeneration: 3 });
    expect(same.metadata.generation).toBe(3);
    const changed = obj({ replicas: 2 });
    s.prepareForUpdate(changed, old);
    expect(changed.metadata.generation).toBe(4);
  });

  it("PrepareForUpdate of an object stored without status gives the zero status", () => {
    const o = obj({}, { status: { replicas: 5 } });
    s.prepareForUpdate(o, obj({}));
    expect(o["status"]).toEqual(zeroStatus);
  });

  it("the status subresource keeps the stored spec and labels", () => {
    const o = obj({ replicas: 7 }, { status: { observedGeneration: 4 } });
    o.metadata.labels = { b: "2" };
    s.subresources!["status"]!.prepareForUpdate(o, obj({ replicas: 1 }));
    expect(o["spec"]).toEqual({ replicas: 1 });
    expect(o.metadata.labels).toEqual({ a: "1" });
    expect(o["status"]).toEqual({ observedGeneration: 4 });
  });

  it("a PUT never creates and may leave out the resourceVersion", () => {
    expect(s.allowCreateOnUpdate).toBe(false);
    expect(s.allowUnconditionalUpdate).toBe(true);
  });
});

describe("Deployment PrepareForUpdate", () => {
  it("an annotation change bumps the generation (a rollback was asked for through one)", () => {
    const old = obj({ replicas: 1 });
    const o = obj({ replicas: 1 });
    o.metadata.annotations = { n: "2" };
    const deployment: RESTStrategy = deploymentStrategy;
    deployment.prepareForUpdate(o, old);
    expect(o.metadata.generation).toBe(4);
  });

  it("for the other kinds an annotation change alone does not", () => {
    const old = obj({ replicas: 1 });
    const o = obj({ replicas: 1 });
    o.metadata.annotations = { n: "2" };
    const replicaSet: RESTStrategy = replicaSetStrategy;
    replicaSet.prepareForUpdate(o, old);
    expect(o.metadata.generation).toBe(3);
  });
});
