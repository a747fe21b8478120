/** maskAges, the kubectl differential test's only normalization, touches ages and nothing else. */
import { describe, expect, it } from "vitest";
import { maskAges } from "./runners.ts";

describe("maskAges", () => {
  it.each([
    ["an AGE column before SELECTOR", "NAME   AGE   SELECTOR\nweb    9s    app=web\n", "NAME   AGE SELECTOR\nweb    <age> app=web\n"],
    ["a wider age gives the same result", "NAME   AGE    SELECTOR\nweb    10s    app=web\n", "NAME   AGE SELECTOR\nweb    <age> app=web\n"],
    [
      "compound ages and describe's event counts",
      "  Normal  Created  5m3s (x2 over 10d)  me  msg\n",
      "  Normal  Created  <age> (x2 over <age>)  me  msg\n",
    ],
    [
      "IPs, ports and names stay",
      "web-v4   10.96.0.10   fd00:10:96::a   80/TCP   443:30443/TCP   3s\n",
      "web-v4   10.96.0.10   fd00:10:96::a   80/TCP   443:30443/TCP   <age>\n",
    ],
  ])("%s", (_name, input, want) => {
    expect(maskAges(input)).toBe(want);
  });

  it("keeps a difference outside the ages visible", () => {
    expect(maskAges("web   ClusterIP   10.0.0.1   5s\n")).not.toBe(maskAges("web   ClusterIP   10.0.0.2   5s\n"));
  });
});
