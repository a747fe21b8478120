/**
 * `kubectl delete --cascade=background|foreground|orphan` with real kubectl 1.33 against the real
 * processes (servicenet up + controller-manager with its garbage collector): the same output as
 * on a real cluster (`service "x" deleted`, printed when the DELETE returns) and the same timing
 * shape (background returns at once and the collector removes the dependents afterwards;
 * foreground keeps kubectl waiting until every blocking dependent is gone, here held by a
 * finalizer; orphan waits for the collector to strip the owner references).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import { startApiserverProc, startControllerManagerProc, type ApiserverProc, type Proc } from "../framework/processes.ts";
import { haveKubectl, kubectlBinary, runKubectl, runOurs } from "../kubectl/runners.ts";

const ns = "cascade";

/** A running kubectl: its stdout so far, the time of its first output line, and its exit. */
interface Running {
  stdout: () => string;
  firstLineAt: () => number | undefined;
  exited: Promise<{ code: number; at: number }>;
  hasExited: () => boolean;
}

describe.skipIf(!haveKubectl())("kubectl delete --cascade against the garbage collector", () => {
  let api: ApiserverProc;
  let cm: Proc;
  let home: string;
  const k = (...argv: string[]) => runKubectl(api.kubeconfigPath, home, argv);
  const kIn = (input: string, ...argv: string[]) => runKubectl(api.kubeconfigPath, home, argv, input);
  const start = (...argv: string[]): Running => {
    const env = { ...process.env, HOME: home, KUBECACHEDIR: join(home, "cache"), KUBECTL_KUBERC: "false" };
    const child = spawn(kubectlBinary, ["--kubeconfig", api.kubeconfigPath, ...argv], { env });
    let out = "";
    let first: number | undefined;
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString("utf8");
      first ??= Date.now();
    });
    const exited = new Promise<{ code: number; at: number }>((resolve) =>
      child.on("exit", (code) => resolve({ code: code ?? 1, at: Date.now() })),
    );
    let done = false;
    void exited.then(() => (done = true));
    return { stdout: () => out, firstLineAt: () => first, exited, hasExited: () => done };
  };

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), "e2e-cascade-"));
    api = await startApiserverProc();
    cm = await startControllerManagerProc(api.kubeconfigPath, { synced: /"msg":"Caches are synced","controller":"garbagecollector"/ });
    expect((await k("create", "namespace", ns)).code).toBe(0);
  });
  afterAll(async () => {
    await cm?.stop("SIGTERM");
    await api?.close();
    rmSync(home, { recursive: true, force: true });
  });

  /** A Service `owner` and pods `<owner>-0..n-1` it owns; extra fields merged into each pod's ownerReference. */
  async function ownerWithPods(owner: string, n: number, ref: Record<string, unknown> = {}, finalizers: string[] = []): Promise<void> {
    expect((await k("-n", ns, "create", "service", "clusterip", owner, "--tcp=80:8080")).code).toBe(0);
    const uid = (await k("-n", ns, "get", "service", owner, "-o", "jsonpath={.metadata.uid}")).stdout;
    const pods = Array.from({ length: n }, (_, i) => ({
      apiVersion: "v1",
      kind: "Pod",
      metadata: {
        name: `${owner}-${i}`,
        namespace: ns,
        ownerReferences: [{ apiVersion: "v1", kind: "Service", name: owner, uid, ...ref }],
        ...(finalizers.length > 0 ? { finalizers } : {}),
      },
      spec: { containers: [{ name: "c", image: "nginx" }] },
    }));
    const r = await kIn(JSON.stringify({ apiVersion: "v1", kind: "List", items: pods }), "apply", "-f", "-");
    expect(r.stderr).toBe("");
  }

  const podNames = async (prefix: string) =>
    (await k("-n", ns, "get", "pods", "-o", "name")).stdout
      .split("\n")
      .filter((l) => l.startsWith(`pod/${prefix}-`))
      .sort();

  it("background: kubectl returns at once; the collector then deletes the dependents", async () => {
    await ownerWithPods("bg", 3);
    const r = await k("-n", ns, "delete", "service", "bg", "--cascade=background");
    expect(r).toEqual({ code: 0, stdout: 'service "bg" deleted\n', stderr: "" });
    await eventually(async () => (await podNames("bg")).length === 0, { timeoutMs: 15_000, what: "bg pods collected" });
  });

  it("foreground: kubectl prints at once, then waits until the blocking dependent held by a finalizer is gone", async () => {
    await ownerWithPods("fg", 2, { blockOwnerDeletion: true }, ["example.com/hold"]);
    const t0 = Date.now();
    const del = start("-n", ns, "delete", "service", "fg", "--cascade=foreground");
    await eventually(() => del.stdout() === 'service "fg" deleted\n', { timeoutMs: 15_000, what: "deleted line" });
    // The owner stays, marked deleting with the foregroundDeletion finalizer; kubectl keeps waiting.
    const held = await k("-n", ns, "get", "service", "fg", "-o", "jsonpath={.metadata.finalizers} {.metadata.deletionTimestamp}");
    expect(held.stdout).toMatch(/^\["foregroundDeletion"\] \d{4}-/);
    await eventually(
      async () =>
        (
          await k("-n", ns, "get", "pods", "-o", 'jsonpath={range .items[*]}{.metadata.name}={.metadata.deletionTimestamp}{"\\n"}{end}')
        ).stdout
          .split("\n")
          .filter((l) => /^fg-\d=\d{4}-/.test(l)).length === 2,
      { timeoutMs: 15_000, what: "dependents deleting" },
    );
    await new Promise((r) => setTimeout(r, 1500));
    expect(del.hasExited()).toBe(false);
    const released = Date.now();
    for (const p of ["fg-0", "fg-1"])
      expect((await k("-n", ns, "patch", "pod", p, "--type=json", "-p", '[{"op":"remove","path":"/metadata/finalizers"}]')).code).toBe(0);
    const { code, at } = await del.exited;
    expect(code).toBe(0);
    expect(del.stdout()).toBe('service "fg" deleted\n');
    expect(at).toBeGreaterThanOrEqual(released);
    expect(del.firstLineAt()! - t0).toBeLessThan(released - t0);
    expect((await k("-n", ns, "get", "service", "fg")).stderr).toBe('Error from server (NotFound): services "fg" not found\n');
    expect(await podNames("fg")).toEqual([]);
  });

  it("orphan: kubectl waits for the orphan finalizer; the dependents stay without their owner reference", async () => {
    await ownerWithPods("or", 3);
    const r = await k("-n", ns, "delete", "service", "or", "--cascade=orphan");
    expect(r).toEqual({ code: 0, stdout: 'service "or" deleted\n', stderr: "" });
    expect((await k("-n", ns, "get", "service", "or")).code).toBe(1);
    const refs = await k(
      "-n",
      ns,
      "get",
      "pods",
      "-o",
      'jsonpath={range .items[*]}{.metadata.name}:{.metadata.ownerReferences}{"\\n"}{end}',
    );
    expect(refs.stdout.split("\n").filter((l) => l.startsWith("or-"))).toEqual(["or-0:", "or-1:", "or-2:"]);
  });

  it("servicenet-kubectl delete --cascade: the same output, and it waits the same way", async () => {
    await ownerWithPods("ours-fg", 1, { blockOwnerDeletion: true }, ["example.com/hold"]);
    await ownerWithPods("ours-or", 2);
    let printed = "";
    const fg = runOurs(
      api.kubeconfigPath,
      ["-n", ns, "delete", "service", "ours-fg", "--cascade=foreground"],
      undefined,
      undefined,
      (o) => {
        printed = o;
      },
    );
    await eventually(() => printed === 'service "ours-fg" deleted\n', { timeoutMs: 15_000, what: "deleted line" });
    await new Promise((r) => setTimeout(r, 1000));
    expect((await k("-n", ns, "get", "service", "ours-fg", "-o", "jsonpath={.metadata.finalizers}")).stdout).toBe('["foregroundDeletion"]');
    expect(
      (await k("-n", ns, "patch", "pod", "ours-fg-0", "--type=json", "-p", '[{"op":"remove","path":"/metadata/finalizers"}]')).code,
    ).toBe(0);
    expect(await fg).toEqual({ code: 0, stdout: 'service "ours-fg" deleted\n', stderr: "" });
    expect(await runOurs(api.kubeconfigPath, ["-n", ns, "delete", "service", "ours-or", "--cascade=orphan"])).toEqual({
      code: 0,
      stdout: 'service "ours-or" deleted\n',
      stderr: "",
    });
    expect(await podNames("ours-or")).toEqual(["pod/ours-or-0", "pod/ours-or-1"]);
  });
});
