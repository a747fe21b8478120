/** SharedInformer over client-node against an in-test fake apiserver. */
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import type { Pod } from "@servicenet/api";
import { afterEach, describe, expect, it } from "vitest";
import { FakeAPIServer } from "../testing/fake-apiserver.ts";
import { makePod } from "../testing/fixtures.ts";
import { SharedInformer } from "./informer.ts";
import { toPlain } from "./plain.ts";

let server: FakeAPIServer | undefined;
let informer: SharedInformer<Pod> | undefined;
afterEach(async () => {
  await informer?.stop();
  await server?.stop();
});

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(cond()).toBe(true);
};

describe("SharedInformer", () => {
  it("syncs, gives (old, new) on update, restarts itself after a non-410 watch error", async () => {
    server = new FakeAPIServer().collection("/api/v1/pods", [makePod({ name: "a", ips: ["10.0.0.1"] })]);
    server.failNextWatch.add("/api/v1/pods");
    const kc = new KubeConfig();
    kc.loadFromClusterAndUser({ name: "fake", server: await server.start(), skipTLSVerify: true }, { name: "u", token: "t" });
    const core = kc.makeApiClient(CoreV1Api);
    informer = new SharedInformer<Pod>({ kubeConfig: kc, path: "/api/v1/pods", list: async () => toPlain(await core.listPodForAllNamespaces(), "V1PodList"), restartBackoffMs: 20 });
    const events: string[] = [];
    informer.addEventHandler({
      onAdd: (p) => events.push(`add ${p.metadata.name}`),
      onUpdate: (o, n) => events.push(`update ${o.status?.podIP}->${n.status?.podIP}`),
      onDelete: (p) => events.push(`delete ${p.metadata.name}`),
    });
    await informer.start();
    await until(() => informer!.hasSynced());
    expect(informer.get("default/a")?.metadata.name).toBe("a");
    // Timestamps in the cache are wire strings, not client-node Date objects.
    expect(typeof informer.get("default/a")?.status?.conditions?.[0]?.lastTransitionTime).toBe("string");
    // The first watch failed with 500; after the backoff the informer watches again and sees this update.
    await new Promise((r) => setTimeout(r, 100));
    server.upsert("/api/v1/pods", makePod({ name: "a", ips: ["10.0.0.2"] }));
    await until(() => events.length === 2);
    expect(events).toEqual(["add a", "update 10.0.0.1->10.0.0.2"]);
  });
});
