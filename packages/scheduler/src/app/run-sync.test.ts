/**
 * cmd/kube-scheduler/app/server.go Run: the informers are started and WaitForCacheSync'ed before
 * sched.Run starts the scheduling loop, so no Pod is tried against a Node cache that has not been
 * listed yet. The Node list fails once here (the reflector retries after its backoff) while the
 * Pod list succeeds: a loop running before the sync would find no Node and report the Pod
 * unschedulable.
 */
import { KubeConfig } from "@kubernetes/client-node";
import { internalError, once, startFakeAPIServer, type Action, type FakeAPIServer } from "@servicenet/testing";
import { afterEach, describe, expect, it } from "vitest";
import { makeNode, makePod } from "../testing/wrappers.ts";
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

const isBinding = (a: Action) => a.verb === "create" && a.resource.name === "pods" && a.subresource === "binding";

describe("runScheduler", () => {
  let fake: FakeAPIServer | undefined;
  const abort = new AbortController();
  let running: Promise<void> | undefined;
  afterEach(async () => {
    abort.abort();
    await running;
    await fake?.stop();
  });

  it("waits for its informers to sync before scheduling: no Pod is tried against an empty Node cache", async () => {
    fake = await startFakeAPIServer({
      objects: [
        { apiVersion: "v1", kind: "Node", ...makeNode("node-1") },
        { apiVersion: "v1", kind: "Pod", ...makePod("web") },
      ],
    });
    fake.prependReactor(
      "list",
      "nodes",
      once(() => ({ status: 500, body: internalError() })),
    );
    fake.prependReactor("create", "pods", (a) =>
      isBinding(a) ? { status: 201, body: { kind: "Status", apiVersion: "v1", status: "Success" } } : undefined,
    );
    await fake.start();
    const bound = fake.waitForAction(isBinding);
    running = runScheduler({ kubeConfig: kubeConfigFor(fake.url) }, abort.signal);
    const binding = await bound;
    expect((binding.body as { target: { name: string } }).target.name).toBe("node-1");
    // Before the binding the Pod was never judged: no status patch, no FailedScheduling event.
    const writes = fake.writes.slice(0, fake.writes.indexOf(binding));
    expect(writes.filter((a) => a.resource.name === "pods" || a.resource.name === "events")).toEqual([]);
  });
});
