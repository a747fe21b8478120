/** SharedInformer over client-node against an in-test fake apiserver. */
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import type { Pod } from "@servicenet/api";
import { FakeAPIServer, internalError, once } from "@servicenet/testing";
import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import { makePod } from "../testing/fixtures.ts";
import { SharedInformer } from "./informer.ts";
import { toPlain } from "./plain.ts";

let server: FakeAPIServer | undefined;
let informer: SharedInformer<Pod> | undefined;
afterEach(async () => {
  await informer?.stop();
  await server?.stop();
});

const until = async (cond: () => boolean): Promise<void> => void (await eventually(cond, { timeoutMs: 2_000, intervalMs: 10 }));

describe("SharedInformer", () => {
  it("syncs, gives (old, new) on update, restarts itself after a non-410 watch error", async () => {
    server = new FakeAPIServer();
    server.tracker.add([makePod({ name: "a", ips: ["10.0.0.1"] }) as never], "pods");
    server.prependReactor("watch", "pods", once(() => ({ status: 500, body: internalError() })));
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
    server.tracker.add([makePod({ name: "a", ips: ["10.0.0.2"] }) as never], "pods");
    await until(() => events.length === 2);
    expect(events).toEqual(["add a", "update 10.0.0.1->10.0.0.2"]);
  });
});
