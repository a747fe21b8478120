import { eventually } from "@servicenet/testing";
import { afterEach, describe, expect, it } from "vitest";
import { DefaultServiceCIDRController, newServiceCIDRStore } from "../../../../../controlplane/controller/defaultservicecidr/index.ts";
import { createStore, objectKey, type Store } from "../../../../../storage/index.ts";
import { newEventRecorder } from "@servicenet/client/tools/events";
import { EventBroadcaster } from "@servicenet/client/tools/record";
import { storeEventSink } from "../../../../../util/events/store-sink.ts";
import { StoreInformer } from "../../../../../util/informer/store-informer.ts";
import { storeIPAddressClient } from "../ipaddress-client.ts";
import { RepairIPAddress } from "./repairip.ts";
import { newService } from "./repairip-testing.ts";

/** The two controllers together on one store, with the real event recorder: bitmap-era Services migrate. */
describe("default ServiceCIDR + RepairIPAddress on one store", () => {
  let store: Store | undefined;
  const informers: StoreInformer[] = [];
  const ac = new AbortController();
  const broadcaster = new EventBroadcaster();
  afterEach(async () => {
    ac.abort();
    broadcaster.shutdown();
    for (const i of informers) i.stop();
    await store?.close();
  });

  it("creates the default ServiceCIDR, then an IPAddress and an Event for every Service without one", async () => {
    store = await createStore({ backend: "memory" });
    const n = 300;
    for (let i = 0; i < n; i++)
      await store.create(objectKey("services/specs", "bar", `s${i}`), newService(`s${i}`, [`10.96.${(i + 1) >> 8}.${(i + 1) & 255}`]));
    await store.create(objectKey("services/specs", "bar", "outside"), newService("outside", ["192.0.2.10"]));
    const [services, serviceCIDRs, ipAddresses] = ["services/specs", "servicecidrs", "ipaddresses"].map(
      (p) => new StoreInformer(store!, p),
    ) as [StoreInformer, StoreInformer, StoreInformer];
    informers.push(services, serviceCIDRs, ipAddresses);
    // The Events are written behind the controllers' backs: count them to wait for the last one.
    const sink = storeEventSink(store);
    let written = 0;
    broadcaster.startRecordingToSink({ ...sink, create: (e) => sink.create(e).finally(() => written++) });
    const repair = new RepairIPAddress({
      services,
      serviceCIDRs,
      ipAddresses,
      client: storeIPAddressClient(store),
      recorder: newEventRecorder(broadcaster, "ipallocator-repair-controller"),
    });
    const def = new DefaultServiceCIDRController({
      cidrs: ["10.96.0.0/16", "fd00:10:96::/112"],
      serviceCIDRs: newServiceCIDRStore(store),
      informer: serviceCIDRs,
      recorder: newEventRecorder(broadcaster, "kubernetes-service-cidr-controller"),
    });
    for (const i of informers) i.start();

    const t0 = performance.now();
    await def.start(ac.signal);
    let ready = 0;
    const run = repair.runUntil(() => (ready = performance.now()), ac.signal);
    while (ready === 0) await new Promise((r) => setTimeout(r, 5));
    const ms = ready - t0;

    await eventually(() => written === n + 1, { what: `${n + 1} Events written` });
    const ips = await store.list("/registry/ipaddresses/");
    expect(ips.items.length).toBe(n);
    expect(ips.items.find((o) => o.metadata.name === "10.96.0.1")?.["spec"]).toEqual({
      parentRef: { group: "", resource: "services", namespace: "bar", name: "s0" },
    });
    const events = (await store.list("/registry/events/")).items;
    const byReason = (r: string) => events.filter((e) => e["reason"] === r);
    expect(byReason("ClusterIPNotAllocated")).toHaveLength(n);
    expect(
      byReason("ClusterIPOutOfRange").map((e) => [
        e["message"],
        e["action"],
        (e["source"] as { component: string }).component,
        (e["involvedObject"] as { name: string }).name,
      ]),
    ).toEqual([
      [
        "Cluster IP [IPv4]: 192.0.2.10 is not within any configured Service CIDR; please recreate service",
        "ClusterIPAllocation",
        "ipallocator-repair-controller",
        "outside",
      ],
    ]);
    const kubernetes = await store.get(objectKey("servicecidrs", undefined, "kubernetes"));
    expect((kubernetes["status"] as { conditions: { status: string }[] }).conditions[0]?.status).toBe("True");
    console.log(
      `repairip first pass: default ServiceCIDR created + ${n} bitmap-era Services migrated (IPAddress + Event each) in ${ms.toFixed(0)} ms (memory store)`,
    );
    ac.abort();
    await run;
    await def.stopped();
  });
});
