import { describe, expect, it } from "vitest";
import { componentName } from "./index.ts";

describe("@servicenet/apiserver", () => {
  it("names its component", () => {
    expect(componentName).toBe("apiserver");
  });
});
