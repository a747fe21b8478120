/** go-types read from the Go struct tables: encoding/json's type names and integer sizes by JSON path. */
import { describe, expect, it } from "vitest";
import { goTypesOf } from "./go-types.ts";

describe("goTypesOf(...).struct", () => {
  it.each([
    ["v1", "Service", "", "v1.Service"],
    ["v1", "Service", "metadata", "v1.ObjectMeta"],
    ["v1", "Service", "metadata.ownerReferences[]", "v1.OwnerReference"],
    ["v1", "Service", "spec.ports[]", "v1.ServicePort"],
    ["v1", "Service", "spec.sessionAffinityConfig.clientIP", "v1.ClientIPConfig"],
    ["v1", "Service", "status.loadBalancer.ingress[].ports[]", "v1.PortStatus"],
    ["v1", "Service", "status.conditions[]", "v1.Condition"],
    ["v1", "Pod", "status.containerStatuses[].lastState.terminated", "v1.ContainerStateTerminated"],
    ["apps/v1", "Deployment", "spec.template.spec.containers[]", "v1.Container"],
    ["apps/v1", "Deployment", "spec.strategy.rollingUpdate", "v1.RollingUpdateDeployment"],
    ["autoscaling/v1", "Scale", "status", "v1.ScaleStatus"],
    ["networking.k8s.io/v1beta1", "IPAddress", "spec.parentRef", "v1beta1.ParentReference"],
    [
      "rbac.authorization.k8s.io/v1",
      "ClusterRole",
      "aggregationRule.clusterRoleSelectors[].matchExpressions[]",
      "v1.LabelSelectorRequirement",
    ],
    // Every tabled kind, not only those a hand-kept table listed.
    ["admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", "webhooks[].rules[]", "v1.RuleWithOperations"],
    // Not a struct: a slice without its `[]`, a string, an unknown field.
    ["v1", "Service", "spec.ports", undefined],
    ["v1", "Service", "spec.type", undefined],
    ["v1", "Service", "spec.nope", undefined],
  ])("%s %s %s", (apiVersion, kind, path, want) => {
    expect(goTypesOf(apiVersion, kind)?.struct(path)).toBe(want);
  });
});

describe("goTypesOf(...).int", () => {
  it.each([
    ["v1", "Service", "metadata.generation", "int64"],
    ["v1", "Service", "metadata.deletionGracePeriodSeconds", "int64"],
    ["v1", "Service", "status.conditions[].observedGeneration", "int64"],
    ["v1", "Service", "spec.ports[].port", "int32"],
    ["v1", "Service", "spec.sessionAffinityConfig.clientIP.timeoutSeconds", "int32"],
  ])("%s %s %s", (apiVersion, kind, path, want) => {
    expect(goTypesOf(apiVersion, kind)?.int(path)).toBe(want);
  });
});

describe("goTypesOf kinds", () => {
  it("is one object per kind, and none for kinds outside k8s.io/api", () => {
    expect(goTypesOf("v1", "Service")).toBe(goTypesOf("v1", "Service"));
    expect(goTypesOf("apiextensions.k8s.io/v1", "CustomResourceDefinition")).toBeUndefined();
    // A custom resource whose group starts like a built-in one.
    expect(goTypesOf("apps.example.com/v1", "Deployment")).toBeUndefined();
  });
});
