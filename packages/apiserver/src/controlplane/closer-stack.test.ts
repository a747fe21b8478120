import { describe, expect, it } from "vitest";
import { CloserStack } from "./closer-stack.ts";

describe("CloserStack", () => {
  it("closes in reverse order of registration, once however often it is closed", async () => {
    const closed: string[] = [];
    const s = new CloserStack();
    s.push("storage", () => void closed.push("storage"));
    s.push("server", async () => {
      await Promise.resolve();
      closed.push("server");
    });
    s.push("controllers", () => void closed.push("controllers"));
    await Promise.all([s.close(), s.close()]);
    await s.close();
    expect(closed).toEqual(["controllers", "server", "storage"]);
  });

  it("runs every close when one fails and throws the first failure, naming its closer", async () => {
    const closed: string[] = [];
    const s = new CloserStack();
    s.push("storage", () => void closed.push("storage"));
    s.push("server", () => {
      throw new Error("EBUSY");
    });
    s.push("informers", () => Promise.reject(new Error("later")));
    await expect(s.close()).rejects.toThrow("closing informers: later");
    expect(closed).toEqual(["storage"]);
    // A second close reports the same outcome without closing anything again.
    await expect(s.close()).rejects.toThrow("closing informers: later");
    expect(closed).toEqual(["storage"]);
  });

  it("refuses a closer registered after close", async () => {
    const s = new CloserStack();
    await s.close();
    expect(() => s.push("late", () => {})).toThrow("closer late registered after close");
  });
});
