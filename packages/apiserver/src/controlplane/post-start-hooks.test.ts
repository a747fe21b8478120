import { describe, expect, it } from "vitest";
import { PostStartHooks } from "./post-start-hooks.ts";

describe("PostStartHooks", () => {
  it("runs the hooks in the order added; each check fails until its hook finished", async () => {
    const hooks = new PostStartHooks();
    const ran: string[] = [];
    let release!: () => void;
    const second = new Promise<void>((r) => (release = r));
    hooks.add("first", () => (ran.push("first"), Promise.resolve()));
    hooks.add("second", async () => {
      ran.push("second");
      await second;
    });
    const checks = hooks.healthChecks();
    expect(checks.map((c) => c.name)).toEqual(["poststarthook/first", "poststarthook/second"]);
    const failing = async () => {
      const out: string[] = [];
      for (const c of checks)
        try {
          await c.check();
        } catch {
          out.push(c.name);
        }
      return out;
    };
    expect(await failing()).toEqual(["poststarthook/first", "poststarthook/second"]);
    const running = hooks.run();
    await new Promise((r) => setImmediate(r));
    expect(ran).toEqual(["first", "second"]);
    expect(await failing()).toEqual(["poststarthook/second"]);
    release();
    await running;
    expect(await failing()).toEqual([]);
  });

  it("refuses a second hook of the same name, as AddPostStartHook does", () => {
    const hooks = new PostStartHooks();
    hooks.add("x", () => Promise.resolve());
    expect(() => hooks.add("x", () => Promise.resolve())).toThrow('unable to add "x" because it was already registered');
  });

  it("stops at a failing hook: later hooks do not run", async () => {
    const hooks = new PostStartHooks();
    const ran: string[] = [];
    hooks.add("bad", () => Promise.reject(new Error("boom")));
    hooks.add("later", () => (ran.push("later"), Promise.resolve()));
    await expect(hooks.run()).rejects.toThrow("boom");
    expect(ran).toEqual([]);
  });
});
