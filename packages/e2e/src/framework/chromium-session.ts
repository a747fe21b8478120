/**
 * Headless Chromium driven over the DevTools protocol on a pipe
 * (`--remote-debugging-pipe`: NUL-terminated JSON on fds 3 and 4, so no WebSocket client is
 * needed): open a page, run script in it (fill and submit a form) and wait for the next load.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable, Writable } from "node:stream";

interface Message {
  id?: number;
  method?: string;
  sessionId?: string;
  result?: Record<string, unknown>;
  error?: { message: string };
  params?: Record<string, unknown>;
}

/** One tab of a headless Chromium. */
export interface BrowserPage {
  /** Evaluates `expression` in the page and returns its value (JSON-serialisable). */
  evaluate<T>(expression: string): Promise<T>;
  /** Runs `action` (e.g. a form submit) and resolves when the page it leads to has loaded. */
  navigation(action: () => Promise<unknown>): Promise<void>;
  close(): Promise<void>;
}

/** Starts `bin` headless and opens `url` in it, resolving once the page has loaded. */
export async function openPage(bin: string, url: string): Promise<BrowserPage> {
  const profile = mkdtempSync(path.join(tmpdir(), "servicenet-chromium-"));
  const child: ChildProcess = spawn(
    bin,
    ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-sync"].concat([
      `--user-data-dir=${profile}`,
      "--remote-debugging-pipe",
      "about:blank",
    ]),
    { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] },
  );
  const toBrowser = child.stdio[3] as Writable;
  const fromBrowser = child.stdio[4] as Readable;
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const pending = new Map<number, { resolve: (m: Message) => void; reject: (e: Error) => void }>();
  const listeners = new Set<(m: Message) => void>();
  let buf = "";
  fromBrowser.on("data", (d: Buffer) => {
    buf += d.toString();
    let i: number;
    while ((i = buf.indexOf("\0")) >= 0) {
      const m = JSON.parse(buf.slice(0, i)) as Message;
      buf = buf.slice(i + 1);
      const p = m.id !== undefined ? pending.get(m.id) : undefined;
      if (p !== undefined) {
        pending.delete(m.id ?? 0);
        if (m.error !== undefined) p.reject(new Error(`${m.error.message}\n${stderr}`));
        else p.resolve(m);
      } else for (const l of listeners) l(m);
    }
  });
  child.once("exit", () => {
    for (const p of pending.values()) p.reject(new Error(`chromium exited\n${stderr}`));
    pending.clear();
  });
  let nextId = 1;
  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Message> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId !== undefined ? { sessionId } : {}) })}\0`);
    });
  const close = async () => {
    child.kill();
    if (child.exitCode === null) await new Promise((r) => child.once("exit", r));
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    const target = await send("Target.createTarget", { url: "about:blank" });
    const attached = await send("Target.attachToTarget", { targetId: target.result?.["targetId"], flatten: true });
    const session = String(attached.result?.["sessionId"]);
    await send("Page.enable", {}, session);
    const loaded = () =>
      new Promise<void>((resolve) => {
        const l = (m: Message) => {
          if (m.sessionId === session && m.method === "Page.loadEventFired") {
            listeners.delete(l);
            resolve();
          }
        };
        listeners.add(l);
      });
    const navigation = async (action: () => Promise<unknown>) => {
      const done = loaded();
      await action();
      await done;
    };
    await navigation(() => send("Page.navigate", { url }, session));
    return {
      navigation,
      close,
      evaluate: async <T>(expression: string) => {
        const r = await send("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true }, session);
        const ex = r.result?.["exceptionDetails"] as { text?: string } | undefined;
        if (ex !== undefined) throw new Error(`evaluate failed: ${ex.text ?? ""}`);
        return (r.result?.["result"] as { value: T }).value;
      },
    };
  } catch (err) {
    await close();
    throw err;
  }
}
