import { describe, expect, it } from "vitest";
import { requestInfo } from "./request-info.ts";

describe("requestInfo", () => {
  it.each<[string, object | undefined]>([
    [
      "/api/v1/namespaces/default/services/web",
      { group: "", version: "v1", namespace: "default", resource: "services", name: "web", subresource: undefined },
    ],
    [
      "/apis/networking.k8s.io/v1/servicecidrs/kubernetes/status",
      {
        group: "networking.k8s.io",
        version: "v1",
        namespace: undefined,
        resource: "servicecidrs",
        name: "kubernetes",
        subresource: "status",
      },
    ],
    [
      "/api/v1/namespaces",
      { group: "", version: "v1", namespace: undefined, resource: "namespaces", name: undefined, subresource: undefined },
    ],
    // A namespace object and its subresources, not resources inside it.
    [
      "/api/v1/namespaces/kube-system",
      { group: "", version: "v1", namespace: undefined, resource: "namespaces", name: "kube-system", subresource: undefined },
    ],
    [
      "/api/v1/namespaces/kube-system/finalize",
      { group: "", version: "v1", namespace: undefined, resource: "namespaces", name: "kube-system", subresource: "finalize" },
    ],
    ["/api/v1", { group: "", version: "v1", namespace: undefined, resource: undefined, name: undefined, subresource: undefined }],
    ["/healthz", undefined],
  ])("%s", (path, want) => {
    expect(requestInfo(path)).toEqual(want);
  });
});
