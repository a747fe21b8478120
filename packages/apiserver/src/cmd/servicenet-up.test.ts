/**
 * `servicenet up` as users run it: a child process on SQLite in a temp dir, a kubeconfig real
 * kubectl can use, a clean stop on SIGINT and a restart that keeps the data. Runs the built
 * dist/ (the `npm start` path); skipped with a warning when it has not been built.
 */
import { spawn, spawnSync, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { kubectl133 } from "../server/testing.ts";

const entry = join(dirname(fileURLToPath(import.meta.url)), "../../dist/cmd/servicenet-up.js");
const ready = existsSync(entry) && kubectl133 !== "";
if (!ready) console.warn(`servicenet-up test: ${entry} (run the build) or kubectl 1.33 is missing, skipping`);

function up(cwd: string, extra: string[] = []): Promise<{ stop(): Promise<number | null>; line: string; pid: number }> {
  const child = spawn(process.execPath, [entry, "--port", "0", ...extra], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  // `out` (both streams) explains a failure; the ready line is stdout's alone: log lines (the
  // lease reconciler's "Resetting endpoints" warning on a new cluster) go to stderr. No clock of
  // its own: a start takes seconds on a loaded machine, and the test's timeout is the ceiling.
  let out = "";
  let stdout = "";
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      stdout += c.toString();
      if (stdout.includes("try: kubectl")) {
        resolve({
          line: stdout,
          pid: child.pid!,
          stop: () =>
            new Promise((r) => {
              child.once("exit", (code) => r(code));
              child.kill("SIGINT");
            }),
        });
      }
    });
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

describe.skipIf(!ready)("servicenet up", () => {
  const dir = mkdtempSync(join(tmpdir(), "servicenet-up-test-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const kubectl = (...args: string[]) =>
    execFileSync(kubectl133, ["--kubeconfig", join(dir, ".servicenet/kubeconfig"), ...args], {
      encoding: "utf8",
      env: { ...process.env, HOME: dir },
    });

  it("starts, serves kubectl, stops on SIGINT and keeps data across a restart", async () => {
    const first = await up(dir);
    expect(first.line).toMatch(
      /^servicenet ready in \d+ ms: apiserver https:\/\/127\.0\.0\.1:\d+ \(sqlite \.servicenet\/state\.db, mode v4v6, service CIDRs 10\.96\.0\.0\/16,fd00:10:96::\/112, allocator dual-write: MultiCIDRServiceAllocator=true,DisableAllocatorDualWrite=false,AuthorizeWithSelectors=true,StrictCostEnforcementForVAP=true,StrictCostEnforcementForWebhooks=true\)\n {2}kubeconfig: \.servicenet\/kubeconfig\n {2}try: kubectl --kubeconfig \.servicenet\/kubeconfig get svc -A\n$/,
    );
    expect(kubectl("create", "service", "clusterip", "persisted", "--tcp=80")).toBe("service/persisted created\n");
    // kubectl as kubeadm's admin; the controller-manager, kube-proxy and the scheduler each under their own identity.
    const whoami = (kc: string): string =>
      kubectl(
        "--kubeconfig",
        join(dir, ".servicenet", kc),
        "auth",
        "whoami",
        "-o",
        "jsonpath={.status.userInfo.username} {.status.userInfo.groups}",
      );
    expect(whoami("kubeconfig")).toBe('kubernetes-admin ["system:masters","system:authenticated"]');
    expect(whoami("controller-manager.kubeconfig")).toBe('system:kube-controller-manager ["system:authenticated"]');
    expect(whoami("kube-proxy.kubeconfig")).toBe('system:kube-proxy ["system:authenticated"]');
    expect(whoami("scheduler.kubeconfig")).toBe('system:kube-scheduler ["system:authenticated"]');
    const cm = readFileSync(join(dir, ".servicenet/controller-manager.kubeconfig"), "utf8");
    // No per-controller users: the controller-manager asks TokenRequest for its controllers' tokens.
    expect(cm).not.toContain("system:serviceaccount:");
    expect(await first.stop()).toBe(0);
    // How fast a restart is ready is a benchmark's business (a load makes any bound here flaky).
    const second = await up(dir);
    expect(kubectl("get", "svc", "persisted", "-o", "jsonpath={.metadata.name}")).toBe("persisted");
    expect(await second.stop()).toBe(0);
  }, 300_000);

  it("closes cleanly on SIGINT sent the moment the ready line is read (handlers are in place first)", async () => {
    const sdir = mkdtempSync(join(tmpdir(), "servicenet-up-signal-"));
    try {
      // Before the fix about half of these died of the signal itself (exit code null).
      const codes: (number | null)[] = [];
      for (let i = 0; i < 6; i++) codes.push(await (await up(sdir)).stop());
      expect(codes).toEqual([0, 0, 0, 0, 0, 0]);
    } finally {
      rmSync(sdir, { recursive: true, force: true });
    }
  }, 600_000);

  it("--runtime-config reaches the server (discovery lists v1alpha1); a bad value exits 2 (a flag error) with upstream's message", async () => {
    const sub = mkdtempSync(join(dir, "rc-"));
    const u = await up(sub, ["--runtime-config", "networking.k8s.io/v1alpha1=true"]);
    try {
      const k = (...args: string[]) =>
        execFileSync(kubectl133, ["--kubeconfig", join(sub, ".servicenet/kubeconfig"), ...args], {
          encoding: "utf8",
          env: { ...process.env, HOME: sub },
        });
      expect(k("api-versions").split("\n")).toEqual(expect.arrayContaining(["networking.k8s.io/v1", "networking.k8s.io/v1alpha1"]));
      expect(k("api-versions")).not.toContain("networking.k8s.io/v1beta1");
    } finally {
      expect(await u.stop()).toBe(0);
    }
    const bad = spawnSync(process.execPath, [entry, "--port", "0", "--runtime-config", "foo.io/v1=true"], { cwd: sub, encoding: "utf8" });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("servicenet: --runtime-config: unknown api groups foo.io");
  }, 300_000);

  it("--service-node-port-range reaches the allocator (a NodePort outside it is refused with upstream's message); a bad range exits 2", async () => {
    const sub = mkdtempSync(join(dir, "np-"));
    const u = await up(sub, ["--service-node-port-range", "31000-31009"]);
    try {
      const k = (...args: string[]) =>
        spawnSync(kubectl133, ["--kubeconfig", join(sub, ".servicenet/kubeconfig"), ...args], {
          encoding: "utf8",
          env: { ...process.env, HOME: sub },
        });
      expect(k("create", "service", "nodeport", "in-range", "--tcp", "80").status).toBe(0);
      const port = Number(k("get", "service", "in-range", "-o", "jsonpath={.spec.ports[0].nodePort}").stdout);
      expect(port).toBeGreaterThanOrEqual(31000);
      expect(port).toBeLessThanOrEqual(31009);
      const out = k("create", "service", "nodeport", "outside", "--tcp", "80", "--node-port", "30080");
      expect(out.stderr).toContain(
        "spec.ports[0].nodePort: Invalid value: 30080: provided port is not in the valid range. The range of valid ports is 31000-31009",
      );
    } finally {
      expect(await u.stop()).toBe(0);
    }
    const bad = spawnSync(process.execPath, [entry, "--port", "0", "--service-node-port-range", "200-100"], { cwd: sub, encoding: "utf8" });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(
      'invalid argument "200-100" for "--service-node-port-range" flag: end port cannot be less than start port: 200-100',
    );
  }, 300_000);

  it("--etcd-prefix: every object under the given root, none under /registry, and a restart finds them", async () => {
    const pdir = mkdtempSync(join(tmpdir(), "servicenet-up-prefix-"));
    try {
      const first = await up(pdir, ["--etcd-prefix", "tenant-a/"]);
      expect(first.line).toContain("(sqlite .servicenet/state.db under /tenant-a, mode v4v6");
      expect(await first.stop()).toBe(0);
      const db = new Database(join(pdir, ".servicenet/state.db"), { readonly: true });
      const names = (db.prepare("SELECT DISTINCT name FROM kine").all() as { name: string }[]).map((r) => r.name);
      db.close();
      expect(names).toContain("/tenant-a/services/specs/default/kubernetes");
      expect(names).toContain("/tenant-a/ranges/serviceips");
      expect(names.filter((n) => !n.startsWith("/tenant-a/") && !n.startsWith("compact_rev_key"))).toEqual([]);
      // The same root again: kubernetes.default is found, not allocated a second time.
      const second = await up(pdir, ["--etcd-prefix", "/tenant-a"]);
      expect(await second.stop()).toBe(0);
      const again = new Database(join(pdir, ".servicenet/state.db"), { readonly: true });
      const creates = again
        .prepare("SELECT COUNT(*) AS n FROM kine WHERE name = ? AND created = 1")
        .get("/tenant-a/services/specs/default/kubernetes") as { n: number };
      again.close();
      expect(creates.n).toBe(1);
    } finally {
      rmSync(pdir, { recursive: true, force: true });
    }
  }, 300_000);

  it("--workers 2: two apiserver processes on one port and one SQLite file, a dead one replaced", async () => {
    const wdir = mkdtempSync(join(tmpdir(), "servicenet-up-workers-"));
    try {
      const up2 = await up(wdir, ["--workers", "2", "--feature-gates", "DisableAllocatorDualWrite=true"]);
      expect(up2.line).toMatch(/\(sqlite \.servicenet\/state\.db, 2 workers, mode v4v6, .* allocator ipaddress: /);
      const kc = readFileSync(join(wdir, ".servicenet/kubeconfig"), "utf8");
      const server = /server: (\S+)/.exec(kc)![1]!;
      const ca = Buffer.from(/certificate-authority-data: (\S+)/.exec(kc)![1]!, "base64");
      // The admin kubeconfig holds a client certificate (CN kubernetes-admin, O system:masters).
      const cert = Buffer.from(/client-certificate-data: (\S+)/.exec(kc)![1]!, "base64");
      const key = Buffer.from(/client-key-data: (\S+)/.exec(kc)![1]!, "base64");
      const call = (method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> =>
        new Promise((resolve, reject) => {
          // A new connection per call: the primary hands connections to the workers in turn.
          const req = request(
            `${server}${path}`,
            { method, ca, cert, key, agent: false, headers: { "content-type": "application/json" } },
            (res) => {
              let text = "";
              res.on("data", (c: Buffer) => (text += c.toString()));
              res.on("end", () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as Record<string, unknown> }));
            },
          );
          req.on("error", reject);
          req.end(body === undefined ? undefined : JSON.stringify(body));
        });
      const svc = (name: string) => ({
        apiVersion: "v1",
        kind: "Service",
        metadata: { name },
        spec: { ipFamilyPolicy: "RequireDualStack", ports: [{ port: 80 }] },
      });
      const created = await Promise.all(
        Array.from({ length: 40 }, (_, i) => call("POST", "/api/v1/namespaces/default/services", svc(`w${i}`))),
      );
      expect(created.map((r) => r.status)).toEqual(created.map(() => 201));
      const ips = created.flatMap((r) => (r.json["spec"] as { clusterIPs: string[] }).clusterIPs);
      expect(new Set(ips).size).toBe(80);
      // Whichever worker answers, it sees every write (a shared datastore, not two clusters).
      const ipaddresses = await call("GET", "/apis/networking.k8s.io/v1/ipaddresses");
      // ... and kubernetes.default's one (SingleStack, primary family).
      expect((ipaddresses.json["items"] as unknown[]).length).toBe(80 + 1);
      const workers = execFileSync("pgrep", ["-P", String(up2.pid)], { encoding: "utf8" })
        .trim()
        .split("\n")
        .map(Number);
      expect(workers).toHaveLength(2);
      process.kill(workers[0]!, "SIGKILL");
      // Polled until the primary has forked a replacement (the test's timeout is the ceiling).
      let replaced: number[] = [];
      while (!(replaced.length === 2 && !replaced.includes(workers[0]!))) {
        await new Promise((r) => setTimeout(r, 100));
        // pgrep exits 1 when the primary has no child for a moment.
        const r = spawnSync("pgrep", ["-P", String(up2.pid)], { encoding: "utf8" });
        replaced = r.stdout.trim() === "" ? [] : r.stdout.trim().split("\n").map(Number);
      }
      expect(replaced).toHaveLength(2);
      expect(replaced).not.toContain(workers[0]);
      const after = await Promise.all(
        Array.from({ length: 8 }, (_, i) => call("POST", "/api/v1/namespaces/default/services", svc(`x${i}`))),
      );
      expect(after.map((r) => r.status)).toEqual(after.map(() => 201));
      expect(await up2.stop()).toBe(0);
      expect(() => execFileSync("pgrep", ["-P", String(up2.pid)])).toThrow();
    } finally {
      rmSync(wdir, { recursive: true, force: true });
    }
  }, 600_000);
});
