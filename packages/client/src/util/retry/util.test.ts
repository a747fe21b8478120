import { StatusError } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { retryOnConflict } from "./util.ts";

const conflict = () => StatusError.conflict({ group: "", resource: "serviceaccounts" }, "sa", "the object has been modified");
const noSleep = () => Promise.resolve();

// staging/src/k8s.io/client-go/util/retry/util_test.go TestRetryOnConflict.
describe("RetryOnConflict", () => {
  it("retries a Conflict until the update goes through", async () => {
    let n = 0;
    await retryOnConflict({ steps: 5, durationMs: 1 }, () => (++n < 3 ? Promise.reject(conflict()) : Promise.resolve()), noSleep);
    expect(n).toBe(3);
  });
  it("gives up after the backoff's steps with the last Conflict", async () => {
    let n = 0;
    const run = retryOnConflict({ steps: 4, durationMs: 1 }, () => (n++, Promise.reject(conflict())), noSleep);
    await expect(run).rejects.toThrow("the object has been modified");
    expect(n).toBe(4);
  });
  it("does not retry another error", async () => {
    let n = 0;
    await expect(retryOnConflict({ steps: 5, durationMs: 1 }, () => (n++, Promise.reject(new Error("boom"))), noSleep)).rejects.toThrow(
      "boom",
    );
    expect(n).toBe(1);
  });
});
