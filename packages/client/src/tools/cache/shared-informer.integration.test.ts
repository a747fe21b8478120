/** SharedInformer over client-node against the fake apiserver of @servicenet/testing. */
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { afterEach, describe, expect, it } from "vitest";
import { toPlain } from "../../rest/plain.ts";
import { eventually, expired, FakeAPIServer, internalError, once } from "@servicenet/testing";
import type { PlainList } from "./list-watch.ts";
import { SharedInformer } from "./shared-informer.ts";

interface Pod {
  metadata: { name: string; namespace: string; resourceVersion?: string };
  status?: { podIP?: string; conditions?: { type: string; status: string; lastTransitionTime: string }[] };
}

const makePod = (name: string, ip: string): Pod => ({
  metadata: { name, namespace: "default" },
  status: { podIP: ip, conditions: [{ type: "Ready", status: "True", lastTransitionTime: "2026-01-01T00:00:00Z" }] },
});

let server: FakeAPIServer | undefined;
let informer: SharedInformer<Pod> | undefined;
afterEach(async () => {
  await informer?.stop();
  await server?.stop();
});

const until = async (cond: () => boolean): Promise<void> => void (await eventually(cond, { timeoutMs: 3_000, intervalMs: 10 }));
const lists = (server: FakeAPIServer): number => server.actions.filter((a) => a.verb === "list" && a.resource.name === "pods").length;

async function start(pods: Pod[]) {
  server = new FakeAPIServer();
  server.tracker.add(pods, "pods");
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser({ name: "fake", server: await server.start(), skipTLSVerify: true }, { name: "u", token: "t" });
  const core = kc.makeApiClient(CoreV1Api);
  informer = new SharedInformer<Pod>({
    kubeConfig: kc,
    path: "/api/v1/pods",
    list: async () => toPlain<PlainList<Pod>>(await core.listPodForAllNamespaces(), "V1PodList"),
    backoff: { initialMs: 20, jitter: 0 },
  });
  const events: string[] = [];
  informer.addEventHandler({
    onAdd: (p) => events.push(`add ${p.metadata.name}`),
    onUpdate: (o, n) => events.push(`update ${o.status?.podIP}->${n.status?.podIP}`),
    onDelete: (p) => events.push(`delete ${p.metadata.name}`),
  });
  return { server, informer, events };
}

describe("SharedInformer", () => {
  it("syncs, gives (old, new) on update, restarts itself after a non-410 watch error", async () => {
    const { server, informer, events } = await start([makePod("a", "10.0.0.1")]);
    server.prependReactor(
      "watch",
      "pods",
      once(() => ({ status: 500, body: internalError() })),
    );
    await informer.start();
    await until(() => informer.hasSynced());
    expect(informer.get("default/a")?.metadata.name).toBe("a");
    // Timestamps in the cache are wire strings, not client-node Date objects.
    expect(typeof informer.get("default/a")?.status?.conditions?.[0]?.lastTransitionTime).toBe("string");
    // The first watch failed with 500; after the backoff the informer watches again and sees this update.
    await new Promise((r) => setTimeout(r, 100));
    server.tracker.add([makePod("a", "10.0.0.2")] as never[], "pods");
    await until(() => events.length === 2);
    expect(events).toEqual(["add a", "update 10.0.0.1->10.0.0.2"]);
    // A 500 is not a reason to relist: one LIST only.
    expect(lists(server)).toBe(1);
  });

  it("relists after a 410 Expired watch event, delivering only what changed, and sees deletes", async () => {
    const { server, informer, events } = await start([makePod("a", "10.0.0.1"), makePod("b", "10.0.0.3")]);
    server.prependReactor(
      "watch",
      "pods",
      once(() => ({ events: [{ type: "ERROR", object: expired() }] })),
    );
    await informer.start();
    await until(() => lists(server) >= 2);
    // The relist found a and b unchanged: no update events for them.
    await until(() => informer.lastSyncResourceVersion !== "");
    const pods = server.tracker.resource("pods");
    server.tracker.delete(pods, "default", "b");
    await until(() => events.length === 3);
    expect(events).toEqual(["add a", "add b", "delete b"]);
    expect(informer.list().map((p) => p.metadata.name)).toEqual(["a"]);
  });
});
