import { describe, expect, it } from "vitest";
import { isStatusError, StatusError } from "@servicenet/api";

describe("e2e wiring", () => {
  it("imports @servicenet/api through its public entry point", () => {
    const err = StatusError.notFound({ group: "", resource: "services" }, "web");
    expect(isStatusError(err)).toBe(true);
    expect(err.status.message).toBe('services "web" not found');
  });
});
