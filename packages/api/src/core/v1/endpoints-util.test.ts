/** upstream pkg/api/v1/endpoints/util_test.go TestPackSubsets, the cases this port keeps. */
import { describe, expect, it } from "vitest";
import { repackSubsets } from "./endpoints-util.ts";

describe("TestPackSubsets (repackSubsets)", () => {
  it.each([
    ["empty everything", [], []],
    ["empty addresses", [{ ports: [{ port: 111 }] }], []],
    ["empty ports", [{ addresses: [{ ip: "1.2.3.4" }] }], [{ addresses: [{ ip: "1.2.3.4" }] }]],
    [
      "one set, two ports, merged",
      [
        { addresses: [{ ip: "1.2.3.4" }], ports: [{ port: 111 }] },
        { addresses: [{ ip: "1.2.3.4" }], ports: [{ port: 222 }] },
      ],
      [{ addresses: [{ ip: "1.2.3.4" }], ports: [{ port: 111 }, { port: 222 }] }],
    ],
    [
      "two addresses one port, sorted",
      [
        { addresses: [{ ip: "5.6.7.8" }], ports: [{ port: 111 }] },
        { addresses: [{ ip: "1.2.3.4" }], ports: [{ port: 111 }] },
      ],
      [{ addresses: [{ ip: "1.2.3.4" }, { ip: "5.6.7.8" }], ports: [{ port: 111 }] }],
    ],
    [
      "ready wins over not ready",
      [{ addresses: [{ ip: "1.2.3.4" }], notReadyAddresses: [{ ip: "1.2.3.4" }], ports: [{ port: 111 }] }],
      [{ addresses: [{ ip: "1.2.3.4" }], ports: [{ port: 111 }] }],
    ],
  ])("%s", (_name, given, want) => {
    expect(repackSubsets(given)).toEqual(want);
  });
});
