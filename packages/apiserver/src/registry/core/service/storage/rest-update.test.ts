import { parseIP } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { createStore, type KubeObject, type Store, type TryUpdate } from "../../../../storage/index.ts";
import { body, faultyStore, newTestREST, specOf } from "./rest-testing.ts";
import { allocatorState, setIPFamilyPolicy, setTypeNodePort } from "./testing.ts";

const key = "/registry/services/specs/default/foo";

/** An update function editing the current object (as a patch does: it keeps the resourceVersion). */
const edit =
  (fn: (spec: Record<string, unknown>, obj: KubeObject) => void) =>
  async (cur: KubeObject | null): Promise<KubeObject> => {
    const o = structuredClone(cur!);
    fn(o["spec"] as Record<string, unknown>, o);
    return o;
  };

/** A Store recording, at the moment each update is written, what `probe` says. */
function probingStore(inner: Store, probe: () => unknown, seen: unknown[]): Store {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === "guaranteedUpdate") {
        return (k: string, fn: TryUpdate, opts?: object) =>
          target.guaranteedUpdate(
            k,
            async (cur) => {
              const next = await fn(cur);
              seen.push(probe());
              return next;
            },
            opts,
          );
      }
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

describe("ServiceREST update", () => {
  it("upgrades single -> dual: the secondary is allocated and stored", async () => {
    const { rest, t } = await newTestREST("v4v6");
    await rest.create("default", body("foo"));
    const { object } = await rest.update(
      "default",
      "foo",
      edit((s) => (s["ipFamilyPolicy"] = "RequireDualStack")),
    );
    const ips = specOf(object).clusterIPs!;
    expect(specOf(object).ipFamilies).toEqual(["IPv4", "IPv6"]);
    expect(ips).toHaveLength(2);
    expect(t.ranges.get("IPv6")!.has(parseIP(ips[1]!)!)).toBe(true);
    expect(specOf(await rest.get("default", "foo")).clusterIPs).toEqual(ips);
  });

  it("downgrade dual -> single releases the secondary only after the write, and not at all when it fails", async () => {
    const seen: unknown[] = [];
    const fail = { update: false };
    let secondary = "";
    const v6held = (): boolean => t.ranges.get("IPv6")!.has(parseIP(secondary)!);
    const store = faultyStore(
      probingStore(await createStore({ backend: "memory" }), () => v6held(), seen),
      fail,
    );
    const { rest, t } = await newTestREST("v4v6", store);
    const created = await rest.create("default", body("foo", setIPFamilyPolicy("RequireDualStack")));
    secondary = specOf(created).clusterIPs![1]!;

    fail.update = true;
    const before = allocatorState(t);
    await expect(
      rest.update(
        "default",
        "foo",
        edit((s) => (s["ipFamilyPolicy"] = "SingleStack")),
      ),
    ).rejects.toThrow("injected");
    expect(allocatorState(t)).toBe(before);

    fail.update = false;
    const { object } = await rest.update(
      "default",
      "foo",
      edit((s) => (s["ipFamilyPolicy"] = "SingleStack")),
    );
    expect(specOf(object).clusterIPs).toEqual([specOf(created).clusterIPs![0]]);
    expect(specOf(object).ipFamilies).toEqual(["IPv4"]);
    expect(seen).toEqual([true]);
    expect(v6held()).toBe(false);
  });

  it("a validation failure on update reverts the new allocation", async () => {
    const { rest, t } = await newTestREST("v4v6");
    await rest.create("default", body("foo"));
    const before = allocatorState(t);
    const err = await rest
      .update(
        "default",
        "foo",
        edit((s) => {
          s["ipFamilyPolicy"] = "RequireDualStack";
          s["type"] = "NodePort";
          s["sessionAffinity"] = "Sometimes";
        }),
      )
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 422 });
    expect(allocatorState(t)).toBe(before);
  });

  it("a PUT omitting clusterIP(s) and nodePorts keeps them (patchAllocatedValues)", async () => {
    const { rest, t } = await newTestREST("v6v4");
    const created = await rest.create("default", body("foo", setTypeNodePort, setIPFamilyPolicy("PreferDualStack")));
    const before = allocatorState(t);
    const put = body("foo", setTypeNodePort, setIPFamilyPolicy("PreferDualStack"));
    put["metadata"]["labels"] = { changed: "yes" };
    const { object } = await rest.update("default", "foo", async () => structuredClone(put));
    expect(specOf(object).clusterIPs).toEqual(specOf(created).clusterIPs);
    expect(specOf(object).ports?.[0]?.nodePort).toBe(specOf(created).ports?.[0]?.nodePort);
    expect(object.metadata["labels"]).toEqual({ changed: "yes" });
    expect(allocatorState(t)).toBe(before);
  });

  it("ClusterIP -> NodePort allocates a NodePort; back to ClusterIP releases it", async () => {
    const { rest, t } = await newTestREST("v4");
    await rest.create("default", body("foo"));
    expect(t.ports.used()).toBe(0);
    const { object } = await rest.update(
      "default",
      "foo",
      edit((s) => {
        s["type"] = "NodePort";
        s["externalTrafficPolicy"] = "Cluster";
      }),
    );
    const np = specOf(object).ports![0]!.nodePort!;
    expect(t.ports.has(np)).toBe(true);
    // An unchanged externalTrafficPolicy is dropped by dropTypeDependentFields, as upstream.
    const back = await rest.update(
      "default",
      "foo",
      edit((s) => {
        s["type"] = "ClusterIP";
      }),
    );
    expect(specOf(back.object).ports![0]!.nodePort).toBeUndefined();
    expect(t.ports.used()).toBe(0);
  });

  it("dry-run update shows the upgrade but allocates and writes nothing", async () => {
    const { rest, t } = await newTestREST("v4v6");
    const created = await rest.create("default", body("foo"));
    const before = allocatorState(t);
    const { object } = await rest.update(
      "default",
      "foo",
      edit((s) => (s["ipFamilyPolicy"] = "RequireDualStack")),
      { dryRun: true },
    );
    expect(specOf(object).clusterIPs).toHaveLength(2);
    expect(allocatorState(t)).toBe(before);
    expect((await rest.get("default", "foo")).metadata.resourceVersion).toBe(created.metadata.resourceVersion);
  });

  it("a compare-and-swap retry reverts the previous attempt's allocation", async () => {
    const { rest, t, store } = await newTestREST("v4v6");
    await rest.create("default", body("foo"));
    let attempts = 0;
    const { object } = await rest.update("default", "foo", async (cur) => {
      attempts++;
      // The first attempt loses the race: someone else writes the object meanwhile.
      if (attempts === 1) await store.guaranteedUpdate(key, (c) => ({ ...c, metadata: { ...c.metadata, labels: { racer: "1" } } }));
      return edit((s) => (s["ipFamilyPolicy"] = "RequireDualStack"))(cur);
    });
    expect(attempts).toBe(2);
    const v6 = t.ranges.get("IPv6")!;
    expect(v6.used()).toBe(1);
    expect(v6.has(parseIP(specOf(object).clusterIPs![1]!)!)).toBe(true);
    expect(object.metadata["labels"]).toEqual({ racer: "1" });
  });

  it("a PUT of a missing Service creates it through the create allocation", async () => {
    const { rest, t } = await newTestREST("v4");
    const res = await rest.update("default", "foo", async () => body("foo", setTypeNodePort));
    expect(res.created).toBe(true);
    expect(t.ranges.get("IPv4")!.has(parseIP(specOf(res.object).clusterIP!)!)).toBe(true);
    expect(t.ports.used()).toBe(1);
  });

  it("a status update never allocates", async () => {
    const { rest, t } = await newTestREST("v4v6");
    await rest.create("default", body("foo"));
    const before = allocatorState(t);
    await rest.update(
      "default",
      "foo",
      edit((s, o) => {
        s["ipFamilyPolicy"] = "RequireDualStack";
        o["status"] = {
          conditions: [{ type: "Ready", status: "True", lastTransitionTime: "2026-01-01T00:00:00Z", reason: "Ok", message: "fine" }],
        };
      }),
      { subresource: "status" },
    );
    expect(allocatorState(t)).toBe(before);
    const stored = await rest.get("default", "foo");
    expect(specOf(stored).clusterIPs).toHaveLength(1);
    expect(stored["status"]).toMatchObject({ conditions: [{ type: "Ready" }] });
  });
});
