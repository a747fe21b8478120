/**
 * The API approval rules of protected community groups (apiextensions-apiserver pkg/apihelpers/
 * helpers.go IsProtectedCommunityGroup, GetAPIApprovalState): a CRD in `k8s.io`, `kubernetes.io`
 * or a subdomain of either names the approval of its API in the `api-approved.kubernetes.io`
 * annotation.
 */
import { parseGoURL } from "../../admissionregistration/v1/webhook-client-config.ts";

/** KubeAPIApprovedAnnotation (types.go). */
export const kubeAPIApprovedAnnotation = "api-approved.kubernetes.io";

/** IsProtectedCommunityGroup: `k8s.io`, `kubernetes.io` and their subdomains. */
export function isProtectedCommunityGroup(group: string): boolean {
  return group === "k8s.io" || group.endsWith(".k8s.io") || group === "kubernetes.io" || group.endsWith(".kubernetes.io");
}

/** APIApprovalState. */
export type APIApprovalState = "Invalid" | "Approved" | "Bypassed" | "Missing";

/** url.ParseRequestURI with a scheme and a host. ParseRequestURI is Parse without the fragment split, so a '#' stays in the host (which Go then refuses) or in the path. */
function isApprovalURL(annotation: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(annotation)) return false;
  try {
    const u = parseGoURL(annotation.replaceAll("#", "%23"));
    return u.scheme !== "" && u.host !== "" && !u.host.includes("%23");
  } catch {
    return false;
  }
}

/** GetAPIApprovalState: the state of the annotation and the message that says why. */
export function getAPIApprovalState(annotations: Readonly<Record<string, string>> | undefined): {
  state: APIApprovalState;
  reason: string;
} {
  const annotation = annotations?.[kubeAPIApprovedAnnotation] ?? "";
  const q = JSON.stringify(kubeAPIApprovedAnnotation);
  if (annotation === "")
    return {
      state: "Missing",
      reason: `protected groups must have approval annotation ${q}, see https://github.com/kubernetes/enhancements/pull/1111`,
    };
  if (annotation.startsWith("unapproved")) return { state: "Bypassed", reason: `not approved: ${JSON.stringify(annotation)}` };
  if (isApprovalURL(annotation)) return { state: "Approved", reason: `approved in ${annotation}` };
  return {
    state: "Invalid",
    reason: `protected groups must have approval annotation ${q} with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
  };
}
