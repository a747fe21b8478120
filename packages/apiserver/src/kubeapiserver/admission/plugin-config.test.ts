/** The enabled plugins' configuration at start-up: kube-apiserver's errors, and only enabled plugins read. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadAdmissionPluginConfig } from "./plugin-config.ts";

const dir = mkdtempSync(join(tmpdir(), "servicenet-admission-plugins-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string): string => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
const kubeconfig = file("kubeconfig", `users: [{name: "*", user: {token: fallback}}]\n`);
const admissionConfig = (kubeConfigFile: string) =>
  file(
    "admission.yaml",
    `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: ValidatingAdmissionWebhook
  configuration:
    apiVersion: apiserver.config.k8s.io/v1
    kind: WebhookAdmissionConfiguration
    kubeConfigFile: "${kubeConfigFile}"
`,
  );

describe("loadAdmissionPluginConfig", () => {
  it("gives a configured webhook plugin its credentials and the other one anonymous clients", () => {
    const c = loadAdmissionPluginConfig(["MutatingAdmissionWebhook", "ValidatingAdmissionWebhook"], admissionConfig(kubeconfig));
    expect(c.webhookAuth.get("ValidatingAdmissionWebhook")?.clientConfigFor("hook:443")).toEqual({ bearerToken: "fallback" });
    expect(c.webhookAuth.get("MutatingAdmissionWebhook")?.clientConfigFor("hook:443")).toEqual({});
  });

  it("fails to read a missing file as kube-apiserver", () => {
    const missing = join(dir, "missing.yaml");
    expect(() => loadAdmissionPluginConfig([], missing)).toThrow(
      `failed to initialize admission: failed to read plugin config: unable to read admission control configuration from "${missing}" [`,
    );
  });

  it("fails a plugin whose kubeconfig is missing as InitPlugin", () => {
    const missing = join(dir, "no-kubeconfig");
    expect(() => loadAdmissionPluginConfig(["ValidatingAdmissionWebhook"], admissionConfig(missing))).toThrow(
      `failed to initialize admission: couldn't init admission plugin "ValidatingAdmissionWebhook": stat ${missing}: no such file or directory`,
    );
  });

  it("fails a relative kubeConfigFile", () => {
    expect(() => loadAdmissionPluginConfig(["ValidatingAdmissionWebhook"], admissionConfig("kubeconfig"))).toThrow(
      `failed to initialize admission: couldn't init admission plugin "ValidatingAdmissionWebhook": kubeConfigFile: Invalid value: "kubeconfig": must be an absolute file path`,
    );
  });

  it("does not read the configuration of a disabled plugin", () => {
    expect(
      loadAdmissionPluginConfig(["MutatingAdmissionWebhook"], admissionConfig("kubeconfig")).webhookAuth.has("ValidatingAdmissionWebhook"),
    ).toBe(false);
  });
});
