/**
 * `--admission-control-config-file` (upstream staging/src/k8s.io/apiserver/pkg/admission/
 * config_test.go TestReadAdmissionConfiguration, TestEmbeddedConfiguration, and the decoder's
 * errors).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readAdmissionConfiguration } from "./config.ts";

const dir = mkdtempSync(join(tmpdir(), "servicenet-admission-config-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const configFileName = join(dir, "admission-plugin-config");
const write = (body: string): string => {
  writeFileSync(configFileName, body);
  return configFileName;
};

const legacy = `{
"imagePolicy": {"kubeConfigFile": "/home/user/.kube/config", "allowTTL": 30, "denyTTL": 30, "retryBackoff": 500, "defaultAllow": true},
"podNodeSelectorPluginConfig": {"clusterDefaultNodeSelector": ""}
}`;

const versioned = (apiVersion: string, path: string) => `{
"apiVersion": "${apiVersion}",
"kind": "AdmissionConfiguration",
"plugins": [
  {"name": "ImagePolicyWebhook", "path": "${path}"},
  {"name": "ResourceQuota"}
]}`;

describe("TestReadAdmissionConfiguration", () => {
  const fixedUp = join(dir, "image-policy-webhook.json");
  it.each([
    {
      name: "v1alpha1 configuration - path fixup",
      body: versioned("apiserver.k8s.io/v1alpha1", "image-policy-webhook.json"),
      path: fixedUp,
    },
    {
      name: "v1alpha1 configuration - abspath",
      body: versioned("apiserver.k8s.io/v1alpha1", "/tmp/image-policy-webhook.json"),
      path: "/tmp/image-policy-webhook.json",
    },
    { name: "v1 configuration - path fixup", body: versioned("apiserver.config.k8s.io/v1", "image-policy-webhook.json"), path: fixedUp },
    {
      name: "v1 configuration - abspath",
      body: versioned("apiserver.config.k8s.io/v1", "/tmp/image-policy-webhook.json"),
      path: "/tmp/image-policy-webhook.json",
    },
  ])("$name", ({ body, path }) => {
    const config = readAdmissionConfiguration([], write(body));
    expect(config.plugins).toEqual([{ name: "ImagePolicyWebhook", path }, { name: "ResourceQuota" }]);
  });

  it("legacy configuration with using legacy plugins", () => {
    const config = readAdmissionConfiguration(["ImagePolicyWebhook", "PodNodeSelector"], write(legacy));
    expect(config.plugins).toEqual([
      { name: "ImagePolicyWebhook", path: configFileName },
      { name: "PodNodeSelector", path: configFileName },
    ]);
    expect(config.configFor("PodNodeSelector")).toBe(legacy);
  });

  it("legacy configuration not using legacy plugins", () => {
    expect(readAdmissionConfiguration(["NamespaceLifecycle", "InitialResources"], write(legacy)).plugins).toEqual([]);
  });

  it("reads YAML as well", () => {
    const config = readAdmissionConfiguration(
      [],
      write("apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: Foo\n  path: foo.yaml\n"),
    );
    expect(config.plugins).toEqual([{ name: "Foo", path: join(dir, "foo.yaml") }]);
  });

  it("has no configuration without a file", () => {
    expect(readAdmissionConfiguration(["Foo"], "").configFor("Foo")).toBeUndefined();
  });
});

describe("TestEmbeddedConfiguration", () => {
  const plugin = (apiVersion: string, configuration: string) =>
    `{"apiVersion": "${apiVersion}", "kind": "AdmissionConfiguration", "plugins": [{"name": "Foo", "configuration": ${configuration}}]}`;
  const typed = `{"apiVersion": "foo.admission.k8s.io/v1alpha1", "kind": "Configuration", "foo": "bar"}`;
  it.each([
    { name: "v1alpha1 versioned configuration", body: plugin("apiserver.k8s.io/v1alpha1", typed), expected: typed },
    { name: "v1alpha1 legacy configuration", body: plugin("apiserver.k8s.io/v1alpha1", `{"foo": "bar"}`), expected: `{"foo": "bar"}` },
    { name: "v1 versioned configuration", body: plugin("apiserver.config.k8s.io/v1", typed), expected: typed },
    { name: "v1 legacy configuration", body: plugin("apiserver.config.k8s.io/v1", `{"foo": "bar"}`), expected: `{"foo": "bar"}` },
  ])("$name", ({ body, expected }) => {
    const got = readAdmissionConfiguration(["Foo"], write(body)).configFor("Foo");
    expect(JSON.parse(got ?? "null")).toEqual(JSON.parse(expected));
  });

  it("reads a plugin's path when it has no embedded configuration", () => {
    writeFileSync(join(dir, "foo.json"), `{"foo": "from-file"}`);
    const config = readAdmissionConfiguration(
      ["Foo"],
      write(versioned("apiserver.config.k8s.io/v1", "x").replace(/ImagePolicyWebhook", "path": "x"/, `Foo", "path": "foo.json"`)),
    );
    expect(config.configFor("Foo")).toBe(`{"foo": "from-file"}`);
    expect(config.configFor("Bar")).toBeUndefined();
  });
});

describe("errors", () => {
  it.each([
    { name: "missing file", path: join(dir, "nope"), want: `unable to read admission control configuration from "${join(dir, "nope")}" [` },
    {
      name: "no kind",
      body: `{"apiVersion": "apiserver.config.k8s.io/v1"}`,
      want: `Object 'Kind' is missing in '{"apiVersion": "apiserver.config.k8s.io/v1"}'`,
    },
    {
      name: "no apiVersion",
      body: `kind: AdmissionConfiguration\n`,
      want: "Object 'apiVersion' is missing in 'kind: AdmissionConfiguration\n'",
    },
    {
      name: "unregistered version",
      body: `{"apiVersion": "apiserver.config.k8s.io/v2", "kind": "AdmissionConfiguration"}`,
      want: `no kind "AdmissionConfiguration" is registered for version "apiserver.config.k8s.io/v2" in scheme`,
    },
    {
      name: "unregistered kind",
      body: `{"apiVersion": "apiserver.config.k8s.io/v1", "kind": "Other"}`,
      want: `no kind "Other" is registered for version "apiserver.config.k8s.io/v1"`,
    },
  ])("$name", ({ path, body, want }) => {
    expect(() => readAdmissionConfiguration(["ImagePolicyWebhook"], path ?? write(body ?? ""))).toThrow(want);
  });
});
