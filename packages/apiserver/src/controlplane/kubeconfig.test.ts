import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { kubeconfigText } from "./kubeconfig.ts";

interface Parsed {
  clusters: { cluster: Record<string, unknown> }[];
  users: { user: Record<string, unknown> }[];
}

describe("kubeconfigText", () => {
  it.each([
    // client-node 1.4's KubeConfig.createAgent refuses http:// unless skipTLSVerify is set.
    {
      name: "http, no token",
      o: { server: "http://127.0.0.1:1", token: "" },
      cluster: { server: "http://127.0.0.1:1", "insecure-skip-tls-verify": true },
      user: {},
    },
    {
      name: "http with a token",
      o: { server: "http://127.0.0.1:1", token: "t" },
      cluster: { server: "http://127.0.0.1:1", "insecure-skip-tls-verify": true },
      user: { token: "t" },
    },
    // kubectl rejects a CA together with the insecure flag: HTTPS gets the CA only.
    {
      name: "https with a CA",
      o: { server: "https://127.0.0.1:1", token: "t", caCert: "PEM" },
      cluster: { server: "https://127.0.0.1:1", "certificate-authority-data": Buffer.from("PEM").toString("base64") },
      user: { token: "t" },
    },
  ])("$name", ({ o, cluster, user }) => {
    const k = parse(kubeconfigText(o)) as Parsed;
    expect(k.clusters[0]!.cluster).toEqual(cluster);
    expect(k.users[0]!.user).toEqual(user);
  });
});
