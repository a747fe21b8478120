import { describe, expect, it } from "vitest";
import { componentName } from "./index.ts";

describe("@servicenet/controller-manager", () => {
  it("names its component", () => {
    expect(componentName).toBe("controller-manager");
  });
});
