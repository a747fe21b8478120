import { describe, expect, it } from "vitest";
import { componentName } from "./index.ts";

describe("@servicenet/kube-proxy", () => {
  it("names its component", () => {
    expect(componentName).toBe("kube-proxy");
  });
});
