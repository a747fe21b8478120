import { StatusError, serviceCIDRProtectionFinalizer } from "@servicenet/api";
import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import { FakeClock } from "@servicenet/component-base/clock";
import { createStore, objectKey, type KubeObject, type Store } from "../../../storage/index.ts";
import { FakeRecorder } from "@servicenet/client/tools/events";
import { StoreInformer } from "../../../util/informer/store-informer.ts";
import { DefaultServiceCIDRController, newServiceCIDRStore, type ServiceCIDRWriter } from "./default-servicecidr-controller.ts";

const defaultIPv4CIDR = "10.16.0.0/16";
const defaultIPv6CIDR = "2001:db8::/64";
const key = objectKey("servicecidrs", undefined, "kubernetes");

const serviceCIDR = (
  name: string,
  cidrs: string[],
  extra: { conditions?: unknown[]; deletionTimestamp?: string; finalizers?: string[] } = {},
): KubeObject => ({
  apiVersion: "networking.k8s.io/v1",
  kind: "ServiceCIDR",
  metadata: {
    name,
    uid: `uid-${name}`,
    creationTimestamp: "2026-01-01T00:00:00Z",
    ...(extra.deletionTimestamp
      ? { deletionTimestamp: extra.deletionTimestamp, finalizers: extra.finalizers ?? [serviceCIDRProtectionFinalizer] }
      : {}),
  },
  spec: { cidrs },
  ...(extra.conditions ? { status: { conditions: extra.conditions } } : {}),
});

interface Fixture {
  store: Store;
  informer: StoreInformer;
  controller: DefaultServiceCIDRController;
  recorder: FakeRecorder;
  clock: FakeClock;
  actions: string[][];
  /** Runs a sync on an up-to-date cache, as the 10 s loop would. */
  sync(): Promise<void>;
}

let fx: Fixture | undefined;
afterEach(async () => {
  fx?.informer.stop();
  await fx?.store.close();
  fx = undefined;
});

async function newController(
  objects: KubeObject[],
  opts: { cidrs?: string[]; wrap?: (w: ServiceCIDRWriter) => ServiceCIDRWriter } = {},
): Promise<Fixture> {
  const store = await createStore({ backend: "memory" });
  for (const o of objects) await store.create(objectKey("servicecidrs", undefined, o.metadata.name!), o);
  const gs = newServiceCIDRStore(store);
  const actions: string[][] = [];
  const recording: ServiceCIDRWriter = {
    create: (ns, obj, p) => (actions.push(["create", "servicecidrs"]), gs.create(ns, obj, p)),
    // The status write is a server-side apply upstream (a "patch" action); spec writes are updates.
    update: (ns, name, info, p) => (
      actions.push([p?.subresource === "status" ? "patch" : "update", "servicecidrs"]),
      gs.update(ns, name, info, p)
    ),
  };
  const informer = new StoreInformer(store, "servicecidrs");
  informer.start();
  await informer.waitForSync();
  const recorder = new FakeRecorder();
  const clock = new FakeClock(Date.UTC(2026, 0, 2));
  const controller = new DefaultServiceCIDRController({
    cidrs: opts.cidrs ?? [defaultIPv4CIDR, defaultIPv6CIDR],
    serviceCIDRs: opts.wrap ? opts.wrap(recording) : recording,
    informer,
    recorder,
    clock,
  });
  const sync = async (): Promise<void> => {
    const list = await store.list("/registry/servicecidrs/");
    await until(
      () =>
        list.items.every((o) => informer.get(o.metadata.name!)?.metadata.resourceVersion === o.metadata.resourceVersion) &&
        informer.list().length === list.items.length,
    );
    await controller.sync();
  };
  fx = { store, informer, controller, recorder, clock, actions, sync };
  return fx;
}

async function until(cond: () => boolean): Promise<void> {
  await eventually(cond, { timeoutMs: 1_500, intervalMs: 5 });
}

const stored = async (f: Fixture): Promise<KubeObject | null> => f.store.get(key, { ignoreNotFound: true });
const conditionsOf = (o: KubeObject | null): unknown => (o?.["status"] as { conditions?: unknown } | undefined)?.conditions;

describe("TestControllerSync", () => {
  it("no existing service CIDRs", async () => {
    const f = await newController([]);
    await f.sync();
    expect(f.actions).toEqual([
      ["create", "servicecidrs"],
      ["patch", "servicecidrs"],
    ]);
    const sc = await stored(f);
    expect(sc?.["spec"]).toEqual({ cidrs: [defaultIPv4CIDR, defaultIPv6CIDR] });
    // Created without a finalizer (defaultservicecidr_controller.go sync): the controller-manager's ServiceCIDR controller adds it.
    expect(sc?.metadata["finalizers"]).toBeUndefined();
    expect(conditionsOf(sc)).toEqual([
      {
        type: "Ready",
        status: "True",
        lastTransitionTime: "2026-01-02T00:00:00Z",
        reason: "",
        message: "Kubernetes default Service CIDR is ready",
      },
    ]);
    const managers = (sc?.metadata["managedFields"] as { manager: string; operation: string; subresource?: string }[]).map((m) => [
      m.manager,
      m.operation,
      m.subresource,
    ]);
    expect(managers).toContainEqual(["kubernetes-service-cidr-controller", "Apply", "status"]);
    expect(f.recorder.events).toEqual([]);
  });

  it("existing default service CIDR update Ready condition", async () => {
    const f = await newController([serviceCIDR("kubernetes", [defaultIPv4CIDR, defaultIPv6CIDR])]);
    await f.sync();
    expect(f.actions).toEqual([["patch", "servicecidrs"]]);
    expect((conditionsOf(await stored(f)) as { status: string }[])[0]?.status).toBe("True");
    await f.sync(); // Ready=True now: nothing more to do
    expect(f.actions).toEqual([["patch", "servicecidrs"]]);
  });

  it("existing default service CIDR with Ready=Unknown gets Ready=True", async () => {
    const f = await newController([
      serviceCIDR("kubernetes", [defaultIPv4CIDR, defaultIPv6CIDR], {
        conditions: [{ type: "Ready", status: "Unknown", reason: "Starting", message: "", lastTransitionTime: "2026-01-01T00:00:00Z" }],
      }),
    ]);
    await f.sync();
    expect(f.actions).toEqual([["patch", "servicecidrs"]]);
    expect(conditionsOf(await stored(f))).toEqual([
      {
        type: "Ready",
        status: "True",
        lastTransitionTime: "2026-01-02T00:00:00Z",
        reason: "",
        message: "Kubernetes default Service CIDR is ready",
      },
    ]);
  });

  it("existing default service CIDR not matching cidrs", async () => {
    const f = await newController([serviceCIDR("kubernetes", ["fd00::/112"])]);
    await f.sync();
    await f.sync();
    expect(f.actions).toEqual([]);
    // Reported once per process.
    expect(f.recorder.events).toEqual([
      "Warning KubernetesDefaultServiceCIDRInconsistent The default ServiceCIDR [fd00::/112] does not match the controller flag configurations [10.16.0.0/16 2001:db8::/64]",
    ]);
    expect(await stored(f)).toMatchObject({ spec: { cidrs: ["fd00::/112"] } });
  });

  it("existing default service CIDR not ready", async () => {
    const f = await newController([
      serviceCIDR("kubernetes", [defaultIPv4CIDR, defaultIPv6CIDR], {
        conditions: [
          {
            type: "Ready",
            status: "False",
            reason: "SomethingWrong",
            message: "the network is down",
            lastTransitionTime: "2026-01-01T00:00:00Z",
          },
        ],
      }),
    ]);
    await f.sync();
    await f.sync();
    expect(f.actions).toEqual([]);
    expect(f.recorder.events).toEqual(["Warning SomethingWrong Configuration matches, but the network is down"]);
    expect((conditionsOf(await stored(f)) as { status: string }[])[0]?.status).toBe("False");
  });

  it("existing default service CIDR being deleted", async () => {
    const f = await newController([
      serviceCIDR("kubernetes", [defaultIPv4CIDR, defaultIPv6CIDR], { deletionTimestamp: "2026-01-01T12:00:00Z" }),
    ]);
    await f.sync();
    expect(f.actions).toEqual([]);
    expect(f.recorder.events).toEqual([]);
    // The controller-manager removes the finalizer; once it is gone the default is recreated from the flags.
    await f.store.delete(key);
    await f.sync();
    expect(f.actions).toEqual([
      ["create", "servicecidrs"],
      ["patch", "servicecidrs"],
    ]);
    expect((await stored(f))?.metadata.deletionTimestamp).toBeUndefined();
  });

  it("existing service CIDRs but not default", async () => {
    const f = await newController([serviceCIDR("non-default-cidr", [defaultIPv4CIDR, defaultIPv6CIDR])]);
    await f.sync();
    expect(f.actions).toEqual([
      ["create", "servicecidrs"],
      ["patch", "servicecidrs"],
    ]);
  });

  it("existing default service CIDR single stack upgraded to dual stack", async () => {
    const f = await newController([
      serviceCIDR("kubernetes", [defaultIPv4CIDR], {
        conditions: [
          {
            type: "Ready",
            status: "True",
            reason: "",
            message: "Kubernetes default Service CIDR is ready",
            lastTransitionTime: "2026-01-01T00:00:00Z",
          },
        ],
      }),
    ]);
    await f.sync();
    expect(f.actions).toEqual([["update", "servicecidrs"]]);
    expect((await stored(f))?.["spec"]).toEqual({ cidrs: [defaultIPv4CIDR, defaultIPv6CIDR] });
    await f.sync();
    expect(f.actions).toEqual([["update", "servicecidrs"]]);
    expect(f.recorder.events).toEqual([]);
  });

  it("existing default service CIDR single stack with another primary is inconsistent, not upgraded", async () => {
    const f = await newController([serviceCIDR("kubernetes", ["10.99.0.0/16"])]);
    await f.sync();
    expect(f.actions).toEqual([]);
    expect(f.recorder.events).toEqual([
      "Warning KubernetesDefaultServiceCIDRInconsistent The default ServiceCIDR [10.99.0.0/16] does not match the controller flag configurations [10.16.0.0/16 2001:db8::/64]",
    ]);
  });

  it("existing default service CIDR dual stack is not downgraded by single-stack flags", async () => {
    const f = await newController([serviceCIDR("kubernetes", [defaultIPv4CIDR, defaultIPv6CIDR])], { cidrs: [defaultIPv4CIDR] });
    await f.sync();
    expect(f.actions).toEqual([]);
    expect(f.recorder.events).toEqual([
      "Warning KubernetesDefaultServiceCIDRInconsistent The default ServiceCIDR [10.16.0.0/16 2001:db8::/64] does not match the controller flag configurations [10.16.0.0/16]",
    ]);
  });

  it("reports a failed upgrade", async () => {
    const f = await newController([serviceCIDR("kubernetes", [defaultIPv4CIDR])], {
      wrap: (w) => ({ ...w, update: () => Promise.reject(StatusError.internal("storage is read-only")) }),
    });
    await f.sync();
    expect(f.recorder.events).toEqual([
      "Warning KubernetesDefaultServiceCIDRError The default ServiceCIDR can not be upgraded from 10.16.0.0/16 to dual stack [10.16.0.0/16 2001:db8::/64] : Internal error occurred: storage is read-only",
    ]);
  });

  it("reports a failed status update", async () => {
    const f = await newController([serviceCIDR("kubernetes", [defaultIPv4CIDR, defaultIPv6CIDR])], {
      wrap: (w) => ({ ...w, update: () => Promise.reject(StatusError.internal("nope")) }),
    });
    await f.sync();
    expect(f.recorder.events).toEqual([
      "Warning KubernetesDefaultServiceCIDRError The default ServiceCIDR Status can not be set to Ready=True",
    ]);
  });
});

describe("DefaultServiceCIDRController.start", () => {
  it("polls every 100 ms until the first sync succeeds, then syncs every 10 s", async () => {
    let failures = 2;
    const f = await newController([], {
      wrap: (w) => ({
        ...w,
        create: (ns, obj, p) => (failures-- > 0 ? Promise.reject(StatusError.internal("not yet")) : w.create(ns, obj, p)),
      }),
    });
    const ac = new AbortController();
    let started = false;
    const start = f.controller.start(ac.signal).then(() => (started = true));
    for (let i = 0; i < 2; i++) {
      await until(() => f.clock.waiters() > 0);
      expect(started).toBe(false);
      f.clock.step(100);
    }
    await start;
    expect(f.recorder.events).toEqual([
      "Warning KubernetesDefaultServiceCIDRError The default ServiceCIDR can not be created",
      "Warning KubernetesDefaultServiceCIDRError The default ServiceCIDR can not be created",
    ]);
    // (the two rejected creates never reached the recording writer)
    expect(f.actions).toEqual([
      ["create", "servicecidrs"],
      ["patch", "servicecidrs"],
    ]);
    // Someone deletes it (finalizer already removed): the 10 s loop recreates it.
    await f.store.guaranteedUpdate(key, (cur) => ({ ...cur, metadata: { ...cur.metadata, finalizers: [] } }));
    await f.store.delete(key);
    await until(() => f.informer.get("kubernetes") === undefined);
    f.clock.step(9_999);
    expect(f.actions.length).toBe(2);
    f.clock.step(1);
    await until(() => f.actions.length === 4);
    ac.abort();
    await f.controller.stopped();
  });

  it("returns without syncing when aborted before the cache syncs", async () => {
    const f = await newController([]);
    const ac = new AbortController();
    ac.abort();
    await f.controller.start(ac.signal);
    expect(f.actions).toEqual([]);
  });
});
