import { describe, expect, it } from "vitest";
import { clientConnection } from "./run.ts";

describe("clientConnection", () => {
  it.each([
    { name: "upstream's defaults", o: {}, want: { qps: 50, burst: 100 } },
    { name: "given values", o: { qps: 200, burst: 400 }, want: { qps: 200, burst: 400 } },
  ])("$name", ({ o, want }) => {
    expect(clientConnection(o)).toEqual(want);
  });
});
