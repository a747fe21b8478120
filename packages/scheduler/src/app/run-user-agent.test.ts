/**
 * Every request of the scheduler carries rest.AddUserAgent(kubeConfig, "scheduler")
 * (cmd/kube-scheduler/app/options createClients), so a real apiserver records its writes (binding,
 * Pod status, Events) under the field manager kube-scheduler, never client-node's `node-fetch`.
 */
import { KubeConfig } from "@kubernetes/client-node";
import { startFakeAPIServer, type FakeAPIServer } from "@servicenet/testing";
import { afterEach, describe, expect, it } from "vitest";
import { makePod } from "../testing/wrappers.ts";
import { runScheduler } from "./run.ts";

function kubeConfigFor(url: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: "fake", server: url, skipTLSVerify: true }],
    users: [{ name: "fake" }],
    contexts: [{ name: "fake", cluster: "fake", user: "fake" }],
    currentContext: "fake",
  });
  return kc;
}

describe("runScheduler's User-Agent", () => {
  let fake: FakeAPIServer | undefined;
  const abort = new AbortController();
  let running: Promise<void> | undefined;
  afterEach(async () => {
    abort.abort();
    await running;
    await fake?.stop();
  });

  it("is kube-scheduler/<version> (<os>/<arch>) kubernetes/<commit>/scheduler on every request", async () => {
    // No Node: the Pod is unschedulable, so the scheduler writes its status and a FailedScheduling Event.
    fake = await startFakeAPIServer({ objects: [{ apiVersion: "v1", kind: "Pod", ...makePod("web") }] });
    await fake.start();
    const event = fake.waitForAction((a) => a.verb === "create" && a.resource.name === "events");
    const status = fake.waitForAction((a) => a.resource.name === "pods" && a.subresource === "status");
    running = runScheduler({ kubeConfig: kubeConfigFor(fake.url) }, abort.signal);
    await Promise.all([event, status]);
    const agents = new Set(fake.actions.map((a) => a.userAgent));
    expect([...agents]).toEqual([
      expect.stringMatching(/^kube-scheduler\/v1\.33\.0\+servicenet \(.+\) kubernetes\/[0-9a-f]{7}\/scheduler$/),
    ]);
  });
});
