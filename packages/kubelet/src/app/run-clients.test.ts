/**
 * The kubelet's clients as cmd/kubelet/app/server.go builds them: every request carries the
 * kubelet's User-Agent (a real apiserver's field manager `kubelet`, never client-node's
 * `node-fetch`), and the heartbeat client (Leases, Node status) has a timeout of
 * nodeStatusUpdateFrequency, at most the lease duration: `?timeout=10s` with the defaults.
 */
import { KubeConfig } from "@kubernetes/client-node";
import { FakeAPIServer } from "@servicenet/testing";
import { afterEach, describe, expect, it } from "vitest";
import { defaultSimulatedNodeOptions } from "../nodestatus/setters.ts";
import { runKubelet } from "./run.ts";

let server: FakeAPIServer | undefined;
const abort = new AbortController();
let running: Promise<void> | undefined;
afterEach(async () => {
  abort.abort();
  await running;
  await server?.stop();
});

describe("runKubelet's clients", () => {
  it("send kubelet/<version> on every request, and the heartbeats with the 10 s timeout", async () => {
    server = new FakeAPIServer();
    const kc = new KubeConfig();
    kc.loadFromClusterAndUser({ name: "fake", server: await server.start(), skipTLSVerify: true }, { name: "u", token: "t" });
    const lease = server.waitForAction((a) => a.resource.name === "leases" && a.method === "POST");
    running = runKubelet({ kubeConfig: kc, nodes: 1, node: defaultSimulatedNodeOptions, leaseRenewIntervalMs: 100 }, abort.signal);
    const renewal = await lease;
    expect(renewal.query.get("timeout")).toBe("10s");
    const register = server.writes.find((a) => a.resource.name === "nodes" && a.method === "POST");
    expect(register?.query.get("timeout")).toBeNull();
    const agents = new Set(server.actions.map((a) => a.userAgent));
    expect([...agents]).toEqual([expect.stringMatching(/^kubelet\/v1\.33\.0\+servicenet \(.+\) kubernetes\/[0-9a-f]{7}$/)]);
    expect(server.actions.some((a) => a.verb === "list" && a.resource.name === "pods")).toBe(true);
  });
});
