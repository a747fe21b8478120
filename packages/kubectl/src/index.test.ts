import { describe, expect, it } from "vitest";
import { componentName } from "./index.ts";

describe("@servicenet/kubectl", () => {
  it("names its component", () => {
    expect(componentName).toBe("kubectl");
  });
});
