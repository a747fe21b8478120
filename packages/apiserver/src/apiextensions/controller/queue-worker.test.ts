/**
 * The CRD controllers' worker (apiextensions-apiserver pkg/controller/establish/
 * establishing_controller.go processNextWorkItem): a failed key is handed to
 * utilruntime.HandleError as `<key> failed with: <err>` and retried.
 */
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import type { LogFields, Logger } from "@servicenet/component-base/logs";
import { describe, expect, it } from "vitest";
import { runWorker } from "./queue-worker.ts";

describe("runWorker", () => {
  it("logs a failed key on the Logger as klog's Unhandled Error and retries it", async () => {
    const lines: [string, LogFields | undefined][] = [];
    const logger: Logger = { info: () => {}, error: (msg, fields) => lines.push([msg, fields]) };
    const queue = new RateLimitingQueue("test");
    let attempts = 0;
    const done = runWorker(
      queue,
      (key) => {
        attempts++;
        if (attempts === 1) return Promise.reject(new Error(`conflict on ${key}`));
        queue.shutDown();
        return Promise.resolve();
      },
      logger,
    );
    queue.add("crontabs.stable.example.com");
    await done;
    expect(attempts).toBe(2);
    expect(lines).toEqual([
      ["Unhandled Error", { err: "crontabs.stable.example.com failed with: conflict on crontabs.stable.example.com" }],
    ]);
  });
});
