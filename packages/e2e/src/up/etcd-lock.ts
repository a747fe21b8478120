/**
 * The suites that wipe `/registry/` on the shared etcd (SERVICENET_ETCD_ENDPOINTS) take this
 * cross-process lock first, so `npm run test:e2e` can run files in parallel: `servicenet up` has
 * no key-prefix flag, so two of them on one etcd would see each other's objects.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const lockDir = path.join(tmpdir(), "servicenet-e2e-shared-etcd.lock");

function holderAlive(): boolean {
  try {
    const pid = Number(readFileSync(path.join(lockDir, "pid"), "utf8"));
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits for the shared-etcd lock (a dead holder's lock is taken over); returns the release function. */
export async function lockSharedEtcd(timeoutMs = 15 * 60_000): Promise<() => void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(path.join(lockDir, "pid"), String(process.pid));
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(lockDir, { recursive: true, force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      // A holder that died (or has not written its pid yet for more than a moment) leaves a stale lock.
      if (!holderAlive()) {
        await new Promise((r) => setTimeout(r, 500));
        if (!holderAlive()) rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
    }
    if (Date.now() > deadline) throw new Error(`shared etcd lock ${lockDir} not free after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
