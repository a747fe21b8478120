/** LoadConfig (upstream admission/plugin/webhook/config/kubeconfig.go): the kinds it takes and its refusals. */
import { describe, expect, it } from "vitest";
import { loadConfig } from "./kubeconfig.ts";

describe("LoadConfig", () => {
  it.each([
    { name: "no configuration", config: undefined, want: "" },
    {
      name: "v1",
      config: `{"apiVersion":"apiserver.config.k8s.io/v1","kind":"WebhookAdmissionConfiguration","kubeConfigFile":"/etc/k"}`,
      want: "/etc/k",
    },
    {
      name: "v1alpha1 in YAML",
      config: "apiVersion: apiserver.config.k8s.io/v1alpha1\nkind: WebhookAdmission\nkubeConfigFile: /etc/k\n",
      want: "/etc/k",
    },
  ])("$name", ({ config, want }) => expect(loadConfig(config)).toBe(want));

  it.each([
    {
      name: "a relative path",
      config: `{"apiVersion":"apiserver.config.k8s.io/v1","kind":"WebhookAdmissionConfiguration","kubeConfigFile":"k"}`,
      want: 'kubeConfigFile: Invalid value: "k": must be an absolute file path',
    },
    {
      name: "no path",
      config: `{"apiVersion":"apiserver.config.k8s.io/v1","kind":"WebhookAdmissionConfiguration"}`,
      want: 'kubeConfigFile: Invalid value: "": must be an absolute file path',
    },
    {
      // v1 registers the type under the name WebhookAdmissionConfiguration only.
      name: "the v1alpha1 kind in v1",
      config: `{"apiVersion":"apiserver.config.k8s.io/v1","kind":"WebhookAdmission","kubeConfigFile":"/k"}`,
      want: 'no kind "WebhookAdmission" is registered for version "apiserver.config.k8s.io/v1"',
    },
    { name: "no kind", config: `{"kubeConfigFile":"/k"}`, want: `Object 'Kind' is missing in '{"kubeConfigFile":"/k"}'` },
  ])("refuses $name", ({ config, want }) => expect(() => loadConfig(config)).toThrow(want));
});
