import { KubeConfig } from "@kubernetes/client-node";
import { userAgentOf } from "@servicenet/client/rest";
import { describe, expect, it } from "vitest";
import { serviceAccountClientBuilder, simpleClientBuilder } from "./client-builder.ts";

const kubeconfig = `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:6443"}}]
users:
  - {name: cm, user: {client-certificate-data: Y2VydA==, client-key-data: a2V5}}
  - {name: "system:serviceaccount:kube-system:endpoint-controller", user: {token: ep-token}}
contexts: [{name: c, context: {cluster: c, user: cm}}]
current-context: c
`;

describe("ControllerClientBuilder", () => {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig);

  it("gives each controller its service account's credentials from the kubeconfig (SAControllerClientBuilder)", () => {
    const ep = serviceAccountClientBuilder(kc).configFor("endpoint-controller");
    expect(ep.getCurrentUser()?.token).toBe("ep-token");
    expect(ep.getCurrentCluster()?.server).toBe("https://127.0.0.1:6443");
  });

  it("falls back to the main credentials for a controller without a user", () => {
    expect(serviceAccountClientBuilder(kc).configFor("namespace-controller").getCurrentUser()?.name).toBe("cm");
  });

  it("uses the main credentials for every controller without --use-service-account-credentials", () => {
    const ep = simpleClientBuilder(kc).configFor("endpoint-controller");
    expect(ep.getCurrentUser()?.name).toBe("cm");
    expect(ep.getCurrentCluster()?.server).toBe("https://127.0.0.1:6443");
  });

  it("gives each controller the User-Agent kube-controller-manager/.../<name> (ConfigOrDie's AddUserAgent)", () => {
    for (const cb of [simpleClientBuilder(kc), serviceAccountClientBuilder(kc), simpleClientBuilder(kc, { qps: 20, burst: 30 })]) {
      const ua = userAgentOf(cb.configFor("replicaset-controller"));
      expect(ua).toMatch(/^kube-controller-manager\/v1\.33\.0\+servicenet \(.+\) kubernetes\/[0-9a-f]{7}\/replicaset-controller$/);
      expect(userAgentOf(cb.configFor("shared-informers"))?.endsWith("/shared-informers")).toBe(true);
    }
    expect(userAgentOf(kc)).toBeUndefined();
  });

  it("gives each controller a configuration of its own with --kube-api-qps/--kube-api-burst (a clientset each)", () => {
    const limits = { qps: 20, burst: 30 };
    for (const cb of [simpleClientBuilder(kc, limits), serviceAccountClientBuilder(kc, "kube-system", limits)]) {
      const ep = cb.configFor("endpoint-controller");
      const ns = cb.configFor("namespace-controller");
      expect(ep).not.toBe(kc);
      expect(ns).not.toBe(ep);
      expect(cb.configFor("endpoint-controller")).toBe(ep);
      expect(ns.getCurrentUser()?.name).toBe("cm");
    }
    const ep = serviceAccountClientBuilder(kc, "kube-system", limits).configFor("endpoint-controller");
    expect(ep.getCurrentUser()?.token).toBe("ep-token");
  });
});
