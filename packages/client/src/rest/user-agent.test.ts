import { describe, expect, it } from "vitest";
import { addUserAgent, defaultKubernetesUserAgent } from "./user-agent.ts";

describe("DefaultKubernetesUserAgent / AddUserAgent", () => {
  it("builds client-go's form, whose first segment is the field manager", () => {
    const ua = defaultKubernetesUserAgent("kube-controller-manager");
    expect(ua).toMatch(/^kube-controller-manager\/v1\.33\.0\+servicenet \([a-z0-9]+\/[a-z0-9]+\) kubernetes\/0000000$/);
    const withController = addUserAgent(ua, "endpointslice-controller");
    expect(withController.endsWith("/endpointslice-controller")).toBe(true);
    expect(withController.split("/")[0]).toBe("kube-controller-manager");
  });
});
