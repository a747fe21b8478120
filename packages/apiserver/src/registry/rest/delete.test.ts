/** BeforeDelete (k8s.io/apiserver/pkg/registry/rest/delete.go), against a graceful and a plain strategy. */
import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../storage/index.ts";
import { beforeDelete, type GracefulDeleteStrategy } from "./delete.ts";

const now = Date.parse("2026-01-01T00:00:00Z");
const graceful: GracefulDeleteStrategy = {
  checkGracefulDelete: (_o, options) => {
    options.gracePeriodSeconds ??= 30;
    return true;
  },
};
const obj = (meta: Record<string, unknown> = {}): KubeObject => ({ metadata: { name: "p", generation: 1, ...meta } });

describe("beforeDelete", () => {
  it("does nothing for a kind without graceful deletion", () => {
    const o = obj();
    expect(beforeDelete({}, o, { gracePeriodSeconds: 10 }, now)).toEqual({ graceful: false, gracefulPending: false });
    expect(o.metadata.deletionTimestamp).toBeUndefined();
  });

  it("marks the first graceful delete: deletionTimestamp = now + period, the period, generation + 1", () => {
    const o = obj();
    const options: { gracePeriodSeconds?: number } = {};
    expect(beforeDelete(graceful, o, options, now)).toEqual({ graceful: true, gracefulPending: false });
    expect(o.metadata).toMatchObject({ deletionTimestamp: "2026-01-01T00:00:30Z", deletionGracePeriodSeconds: 30, generation: 2 });
    expect(options.gracePeriodSeconds).toBe(30);
  });

  it("treats a negative grace period as 1s", () => {
    const o = obj();
    beforeDelete(graceful, o, { gracePeriodSeconds: -5 }, now);
    expect(o.metadata["deletionGracePeriodSeconds"]).toBe(1);
  });

  const deleting = () => obj({ deletionTimestamp: "2026-01-01T00:00:30Z", deletionGracePeriodSeconds: 30, generation: 2 });

  it.each([
    ["no period: pending, options take the object's", undefined, { graceful: false, gracefulPending: true }, 30],
    ["the same period: pending", 30, { graceful: false, gracefulPending: true }, 30],
    ["a longer period: pending", 60, { graceful: false, gracefulPending: true }, 60],
  ])("an object already deleting, %s", (_n, period, want, optionsAfter) => {
    const o = deleting();
    const options = { gracePeriodSeconds: period };
    expect(beforeDelete(graceful, o, options, now)).toEqual(want);
    expect(options.gracePeriodSeconds).toBe(optionsAfter);
    expect(o.metadata).toMatchObject({ deletionTimestamp: "2026-01-01T00:00:30Z", deletionGracePeriodSeconds: 30, generation: 2 });
  });

  it("shortens a pending deletion: the timestamp moves back by the difference, generation stays", () => {
    const o = deleting();
    expect(beforeDelete(graceful, o, { gracePeriodSeconds: 0 }, now + 5000)).toEqual({ graceful: true, gracefulPending: false });
    expect(o.metadata).toMatchObject({ deletionTimestamp: "2026-01-01T00:00:00Z", deletionGracePeriodSeconds: 0, generation: 2 });
  });

  it("deletes at once an object marked deleting with grace 0 (the removal failed before)", () => {
    const o = obj({ deletionTimestamp: "2026-01-01T00:00:00Z", deletionGracePeriodSeconds: 0 });
    expect(beforeDelete(graceful, o, {}, now)).toEqual({ graceful: false, gracefulPending: false });
  });
});
