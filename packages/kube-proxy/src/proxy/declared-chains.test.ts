/**
 * Every chain a full sync jumps to is declared in it, for every Service shape of
 * the proxier tests, in both backends and families. With internalTrafficPolicy and
 * externalTrafficPolicy both Local, the external chain short-circuits pod and node
 * traffic to the Cluster chain, which upstream therefore keeps
 * (pkg/proxy/iptables/proxier.go and pkg/proxy/nftables/proxier.go syncProxyRules,
 * usesClusterPolicyChain).
 */
import { describe, expect, it } from "vitest";
import { undeclaredIptablesTargets, undeclaredNftTargets } from "../testing/jump-targets.ts";
import { renderShape } from "../testing/render-shapes.ts";
import { serviceShapes } from "../testing/service-shapes.ts";

describe("every chain jumped to is declared", () => {
  it.each(serviceShapes.map((s) => [s.name, s] as const))("%s", (_name, shape) => {
    const r = renderShape(shape);
    for (const family of ["IPv4", "IPv6"] as const) {
      expect(undeclaredIptablesTargets(r.iptables[family]), `iptables ${family}`).toEqual([]);
      expect(undeclaredNftTargets(r.nftables[family]), `nftables ${family}`).toEqual([]);
    }
  });

  it("ITP Local + ETP Local declares and fills the Cluster chain the external chain short-circuits to", () => {
    const shape = serviceShapes.find((s) => s.name === "nodeport itp local etp local remote only");
    if (shape === undefined) throw new Error("shape missing");
    const r = renderShape(shape);
    const svc = /-A (KUBE-EXT-\S+) .*"route LOCAL traffic .*-j (KUBE-SVC-\S+)/.exec(r.iptables.IPv4);
    expect(svc?.[2]).toBeDefined();
    expect(r.iptables.IPv4).toContain(`:${svc?.[2]} - [0:0]`);
    expect(r.iptables.IPv4).toMatch(new RegExp(`-A ${svc?.[2]} .* -j KUBE-SEP-`));
    expect(r.nftables.IPv4).toMatch(/^add chain ip kube-proxy service-\S+-ns\/nodeport-itp-local-etp-local-remote-only\/tcp\/p80$/m);
  });
});

describe("the checkers find what is missing", () => {
  it("iptables: a jump to a chain the table does not declare", () => {
    const text = "*nat\n:KUBE-SERVICES - [0:0]\n-A KUBE-SERVICES -j KUBE-SVC-X\n-A KUBE-SERVICES -j MASQUERADE\nCOMMIT\n";
    expect(undeclaredIptablesTargets(text)).toEqual(["KUBE-SVC-X"]);
  });
  it("nftables: a goto in a map element to an undeclared chain", () => {
    const tx = "add chain ip kube-proxy services\nadd element ip kube-proxy service-ips { 1.2.3.4 . tcp . 80 : goto service-X }\n";
    expect(undeclaredNftTargets(tx)).toEqual(["service-X"]);
  });
});
