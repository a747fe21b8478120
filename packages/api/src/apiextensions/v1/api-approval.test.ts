/** Upstream pkg/apihelpers/helpers_test.go: TestIsProtectedCommunityGroup, TestGetAPIApprovalState. */
import { describe, expect, it } from "vitest";
import { getAPIApprovalState, isProtectedCommunityGroup, kubeAPIApprovedAnnotation, type APIApprovalState } from "./api-approval.ts";

describe("TestIsProtectedCommunityGroup", () => {
  it.each<[string, string, boolean]>([
    ["bare k8s", "k8s.io", true],
    ["bare kube", "kubernetes.io", true],
    ["nested k8s", "sigs.k8s.io", true],
    ["nested kube", "sigs.kubernetes.io", true],
    ["alternative", "different.io", false],
  ])("%s", (_name, group, expected) => {
    expect(isProtectedCommunityGroup(group)).toBe(expected);
  });
});

describe("TestGetAPIApprovalState", () => {
  it.each<[string, Record<string, string>, APIApprovalState]>([
    ["bare unapproved", { [kubeAPIApprovedAnnotation]: "unapproved" }, "Bypassed"],
    ["unapproved with message", { [kubeAPIApprovedAnnotation]: "unapproved, experimental-only" }, "Bypassed"],
    ["mismatched case", { [kubeAPIApprovedAnnotation]: "Unapproved" }, "Invalid"],
    ["empty", { [kubeAPIApprovedAnnotation]: "" }, "Missing"],
    ["missing", {}, "Missing"],
    ["url", { [kubeAPIApprovedAnnotation]: "https://github.com/kubernetes/kubernetes/pull/78458" }, "Approved"],
    ["url - no scheme", { [kubeAPIApprovedAnnotation]: "github.com/kubernetes/kubernetes/pull/78458" }, "Invalid"],
    ["url - no host", { [kubeAPIApprovedAnnotation]: "http:///kubernetes/kubernetes/pull/78458" }, "Invalid"],
    ["url - just path", { [kubeAPIApprovedAnnotation]: "/" }, "Invalid"],
    ["missing scheme", { [kubeAPIApprovedAnnotation]: "github.com/kubernetes/kubernetes/pull/78458" }, "Invalid"],
    // Not upstream rows: ParseRequestURI keeps a fragment in the host, which it refuses.
    ["fragment in the host", { [kubeAPIApprovedAnnotation]: "https://github.com#x" }, "Invalid"],
    ["fragment in the path", { [kubeAPIApprovedAnnotation]: "https://github.com/a#x" }, "Approved"],
  ])("%s", (_name, annotations, expected) => {
    expect(getAPIApprovalState(annotations).state).toBe(expected);
  });

  it("words its reasons as upstream", () => {
    expect(getAPIApprovalState({}).reason).toBe(
      'protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
    );
    expect(getAPIApprovalState({ [kubeAPIApprovedAnnotation]: "unapproved, x" }).reason).toBe('not approved: "unapproved, x"');
    expect(getAPIApprovalState({ [kubeAPIApprovedAnnotation]: "https://x.io/1" }).reason).toBe("approved in https://x.io/1");
  });
});
