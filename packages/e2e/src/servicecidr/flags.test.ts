/**
 * kube-apiserver's --service-cluster-ip-range size limit (cmd/kube-apiserver/app/options/validation.go
 * validateClusterIPFlags) on the built `servicenet up` process: 20 host bits at most while a bitmap exists
 * (bitmap and dual-write modes), no limit with DisableAllocatorDualWrite.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import { apiserverBin } from "../framework/bins.ts";

const dir = mkdtempSync(path.join(tmpdir(), "servicenet-servicecidr-flags-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  out(): string;
  code: Promise<number | null>;
  stop(): void;
}
function up(name: string, extra: readonly string[]): Run {
  const child = spawn(
    process.execPath,
    [apiserverBin, "--port", "0", "--data-dir", path.join(dir, name), "--service-cluster-ip-range", "10.0.0.0/8", ...extra],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  return { out: () => out, code: new Promise((r) => child.once("exit", (c) => r(c))), stop: () => void child.kill("SIGTERM") };
}

const tooLarge = "specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12";

describe.concurrent("servicenet up --service-cluster-ip-range 10.0.0.0/8 (kube-apiserver TestClusterServiceIPRange rule)", () => {
  it.each([
    ["dual-write (default gates)", []],
    ["bitmap", ["--feature-gates", "MultiCIDRServiceAllocator=false"]],
  ])(
    "%s: exits 2 with upstream's too-large message",
    async (_name, flags) => {
      const r = up(`fatal-${flags.length}`, flags);
      expect(await r.code).toBe(2);
      expect(r.out()).toContain(tooLarge);
    },
    60_000,
  );

  it("ipaddress (--feature-gates DisableAllocatorDualWrite=true): starts, serves the /8, stops on SIGTERM", async () => {
    const r = up("ipaddress", ["--feature-gates", "DisableAllocatorDualWrite=true"]);
    try {
      await eventually(
        async () => {
          if (/servicenet: /.test(r.out()) && !/ready/.test(r.out())) throw new Error(r.out());
          return /^servicenet ready/m.test(r.out());
        },
        { what: "ready line", timeoutMs: 60_000 },
      );
      expect(r.out()).toContain("allocator ipaddress");
      expect(r.out()).not.toContain(tooLarge);
    } finally {
      r.stop();
    }
    expect(await r.code).toBe(0);
  });
});
