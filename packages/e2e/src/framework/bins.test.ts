import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { apiserverBin, binOf, controllerManagerBin, kubeProxyBin } from "./bins.ts";

describe("binOf", () => {
  it("resolves each command from its package's bin field", () => {
    expect(apiserverBin).toMatch(/packages\/apiserver\/dist\/cmd\/servicenet-up\.js$/);
    expect(controllerManagerBin).toMatch(/packages\/controller-manager\/dist\/cmd\/controller-manager\.js$/);
    expect(kubeProxyBin).toMatch(/packages\/kube-proxy\/dist\/cmd\/main\.js$/);
    expect(binOf("@servicenet/kubectl")).toMatch(/packages\/kubectl\/dist\/cmd\/kubectl\.js$/);
    // After a build each is a node script.
    if (existsSync(apiserverBin)) expect(readFileSync(apiserverBin, "utf8")).toMatch(/^#!\/usr\/bin\/env node/);
  });

  it("names a bin the package does not have", () => {
    expect(() => binOf("@servicenet/apiserver", "nope")).toThrow(/has no bin nope/);
  });
});
