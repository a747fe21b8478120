/** Real kubectl 1.33 against an in-process server: create, get, describe, patch and delete flows, asserting on kubectl's output. */
import { findKubectl } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, startTestServer, type TestServer } from "./testing.ts";

const twoServices = `apiVersion: v1
kind: Service
metadata:
  name: alpha
  labels: {app: alpha}
spec:
  selector: {app: alpha}
  ports: [{port: 80, targetPort: 8080}]
---
apiVersion: v1
kind: Service
metadata:
  name: beta
spec:
  type: NodePort
  clusterIP: 10.96.0.10
  ports: [{name: https, port: 443, nodePort: 30443}]
`;

describe.skipIf(!haveKubectl())("real kubectl 1.33", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("lists the served resources with api-resources", async () => {
    const r = await s.kubectl(["api-resources"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^services\s+svc\s+v1\s+true\s+Service$/m);
    expect(r.stdout).toMatch(/^endpointslices\s+discovery\.k8s\.io\/v1\s+true\s+EndpointSlice$/m);
    expect(r.stdout).toMatch(/^servicecidrs\s+networking\.k8s\.io\/v1\s+false\s+ServiceCIDR$/m);
    expect(r.stdout).toMatch(/^namespaces\s+ns\s+v1\s+false\s+Namespace$/m);
  });

  it("creates two services from one multi-document file and gets them in every format", async () => {
    const c = await s.kubectl(["create", "-f", "-"], { input: twoServices });
    expect(c.stdout).toBe("service/alpha created\nservice/beta created\n");
    const table = await s.kubectl(["get", "svc"]);
    expect(table.stdout.split("\n")[0]).toMatch(/^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE$/);
    expect(table.stdout).toMatch(/^beta\s+NodePort\s+10\.96\.0\.10\s+<none>\s+443:30443\/TCP\s+\d+s$/m);
    const wide = await s.kubectl(["get", "svc", "-o", "wide"]);
    expect(wide.stdout).toMatch(/^alpha\s+ClusterIP\s+10\.96\.\d+\.\d+\s+<none>\s+80\/TCP\s+\d+s\s+app=alpha$/m);
    const yaml = await s.kubectl(["get", "svc", "beta", "-o", "yaml"]);
    expect(yaml.stdout).toContain("clusterIPs:\n  - 10.96.0.10");
    const json = JSON.parse((await s.kubectl(["get", "svc", "-l", "app=alpha", "-o", "json"])).stdout) as {
      items: { metadata: { name: string } }[];
    };
    expect(json.items.map((i) => i.metadata.name)).toEqual(["alpha"]);
    const all = await s.kubectl(["get", "svc", "-A"]);
    expect(all.stdout).toMatch(/^NAMESPACE\s+NAME\s+TYPE/);
    expect(all.stdout).toMatch(/^default\s+alpha\s+ClusterIP/m);
    // kubernetes.default holds the first address of the primary range.
    expect(all.stdout).toMatch(/^default\s+kubernetes\s+ClusterIP\s+10\.96\.0\.1\s+<none>\s+443\/TCP/m);
  });

  it("applies twice with a change (client-side) and patches with all three types", async () => {
    const doc = (port: number) => `apiVersion: v1\nkind: Service\nmetadata: {name: gamma}\nspec:\n  ports: [{port: ${port}}]\n`;
    expect((await s.kubectl(["apply", "-f", "-"], { input: doc(80) })).stdout).toBe("service/gamma created\n");
    expect((await s.kubectl(["apply", "-f", "-"], { input: doc(81) })).stdout).toBe("service/gamma configured\n");
    expect((await s.kubectl(["get", "svc", "gamma", "-o", "jsonpath={.spec.ports[0].port}"])).stdout).toBe("81");
    expect((await s.kubectl(["patch", "svc", "gamma", "--type=merge", "-p", '{"metadata":{"labels":{"tier":"web"}}}'])).stdout).toBe(
      "service/gamma patched\n",
    );
    expect(
      (await s.kubectl(["patch", "svc", "gamma", "--type=json", "-p", '[{"op":"replace","path":"/spec/ports/0/port","value":82}]'])).stdout,
    ).toBe("service/gamma patched\n");
    expect((await s.kubectl(["patch", "svc", "gamma", "-p", '{"spec":{"ports":[{"port":82,"name":"web"}]}}'])).stdout).toBe(
      "service/gamma patched\n",
    );
    const got = JSON.parse((await s.kubectl(["get", "svc", "gamma", "-o", "json"])).stdout) as {
      metadata: { labels: Record<string, string> };
      spec: { ports: { port: number; name: string }[] };
    };
    expect(got.metadata.labels).toEqual({ tier: "web" });
    expect(got.spec.ports).toEqual([expect.objectContaining({ port: 82, name: "web" })]);
  });

  it("creates a service with `create service clusterip` (a protobuf body)", async () => {
    const r = await s.kubectl(["create", "service", "clusterip", "web", "--tcp=80:8080"]);
    expect(r.stdout, r.stderr).toBe("service/web created\n");
    expect((await s.kubectl(["get", "svc", "web", "-o", "wide"])).stdout).toMatch(
      /^web\s+ClusterIP\s+10\.96\.\d+\.\d+\s+<none>\s+80\/TCP\s+\d+s\s+app=web$/m,
    );
  });

  it("allocates one ClusterIP per family for a RequireDualStack Service and releases them on delete", async () => {
    const doc = "apiVersion: v1\nkind: Service\nmetadata: {name: dual}\nspec:\n  ipFamilyPolicy: RequireDualStack\n  ports: [{port: 80}]\n";
    expect((await s.kubectl(["create", "-f", "-"], { input: doc })).stdout).toBe("service/dual created\n");
    const got = JSON.parse((await s.kubectl(["get", "svc", "dual", "-o", "json"])).stdout) as {
      spec: { clusterIPs: string[]; ipFamilies: string[] };
    };
    expect(got.spec.ipFamilies).toEqual(["IPv4", "IPv6"]);
    expect(got.spec.clusterIPs[0]).toMatch(/^10\.96\.\d+\.\d+$/);
    expect(got.spec.clusterIPs[1]).toMatch(/^fd00:10:96::[0-9a-f]+$/);
    const taken = await s.kubectl(["create", "service", "clusterip", "dup", "--tcp=80", `--clusterip=${got.spec.clusterIPs[0]}`]);
    expect(taken.code).not.toBe(0);
    expect(taken.stderr).toBe(
      `error: failed to create ClusterIP service: Service "dup" is invalid: spec.clusterIPs: Invalid value: []string{"${got.spec.clusterIPs[0]}"}: failed to allocate IP ${got.spec.clusterIPs[0]}: provided IP is already allocated\n`,
    );
    expect((await s.kubectl(["delete", "svc", "dual"])).stdout).toBe('service "dual" deleted\n');
    const reuse = await s.kubectl(["create", "service", "clusterip", "dup", "--tcp=80", `--clusterip=${got.spec.clusterIPs[0]}`]);
    expect(reuse.stdout, reuse.stderr).toBe("service/dup created\n");
  });

  it("sees a change through get -w", async () => {
    const watching = s.kubectl(["get", "svc", "alpha", "-w", "--output-watch-events"], { timeoutMs: 4000 });
    await new Promise((r) => setTimeout(r, 1200));
    await s.kubectl(["label", "svc", "alpha", "seen=yes"]);
    const w = await watching;
    expect(w.stdout).toMatch(/^ADDED\s+alpha\s+ClusterIP/m);
    expect(w.stdout).toMatch(/^MODIFIED\s+alpha\s+ClusterIP/m);
  });

  it("deletes and waits for deletion", async () => {
    const waiting = s.kubectl(["wait", "--for=delete", "svc/gamma", "--timeout=5s"]);
    await new Promise((r) => setTimeout(r, 500));
    expect((await s.kubectl(["delete", "svc", "gamma"])).stdout).toBe('service "gamma" deleted\n');
    const w = await waiting;
    expect(w.code, w.stderr).toBe(0);
    expect(w.stdout).toBe("service/gamma condition met\n");
    expect((await s.kubectl(["get", "svc", "gamma"])).stderr).toBe('Error from server (NotFound): services "gamma" not found\n');
  });

  it("prints upstream's wording for an invalid Service and an unknown field", async () => {
    const bad = "apiVersion: v1\nkind: Service\nmetadata: {name: bad}\nspec:\n  ipFamilyPolicy: Foo\n  ports: [{port: 80}]\n";
    const r = await s.kubectl(["create", "-f", "-"], { input: bad });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toBe(
      'The Service "bad" is invalid: spec.ipFamilyPolicy: Unsupported value: "Foo": supported values: "PreferDualStack", "RequireDualStack", "SingleStack"\n',
    );
    const unk = "apiVersion: v1\nkind: Service\nmetadata: {name: unk}\nspec:\n  foo: 1\n  ports: [{port: 80}]\n";
    const strict = await s.kubectl(["create", "-f", "-", "--validate=strict"], { input: unk });
    expect(strict.stderr).toBe(
      'Error from server (BadRequest): error when creating "STDIN": Service in version "v1" cannot be handled as a Service: strict decoding error: unknown field "spec.foo"\n',
    );
    const warn = await s.kubectl(["create", "-f", "-", "--validate=warn"], { input: unk });
    expect(warn.stderr).toContain('Warning: unknown field "spec.foo"');
    expect(warn.stdout).toBe("service/unk created\n");
  });

  it("applies server-side (create, then unchanged apply, then a conflict for another manager)", async () => {
    const doc = (tier: string) =>
      `apiVersion: v1\nkind: Service\nmetadata: {name: ssa, labels: {tier: ${tier}}}\nspec:\n  ports: [{port: 80}]\n`;
    expect((await s.kubectl(["apply", "--server-side", "-f", "-"], { input: doc("a") })).stdout).toBe("service/ssa serverside-applied\n");
    expect((await s.kubectl(["apply", "--server-side", "-f", "-"], { input: doc("a") })).stdout).toBe("service/ssa serverside-applied\n");
    const other = await s.kubectl(["apply", "--server-side", "--field-manager=other", "-f", "-"], { input: doc("b") });
    expect(other.code).not.toBe(0);
    expect(other.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl": .metadata.labels.tier');
    const managers = JSON.parse((await s.kubectl(["get", "svc", "ssa", "-o", "json", "--show-managed-fields"])).stdout) as {
      metadata: { managedFields: { manager: string; operation: string }[] };
    };
    expect(managers.metadata.managedFields).toEqual([expect.objectContaining({ manager: "kubectl", operation: "Apply" })]);
  });

  it("creates, prints and describes a ServiceCIDR and an IPAddress", async () => {
    const docs = `apiVersion: networking.k8s.io/v1
kind: ServiceCIDR
metadata: {name: extra}
spec:
  cidrs: [10.200.0.0/24]
---
apiVersion: networking.k8s.io/v1
kind: IPAddress
metadata: {name: 10.200.0.5}
spec:
  parentRef: {group: "", resource: services, namespace: default, name: alpha}
`;
    expect((await s.kubectl(["create", "-f", "-"], { input: docs })).stdout).toBe(
      "servicecidr.networking.k8s.io/extra created\nipaddress.networking.k8s.io/10.200.0.5 created\n",
    );
    // The default ServiceCIDR comes from the flags; every Service's ClusterIP has its IPAddress.
    expect((await s.kubectl(["get", "servicecidr"])).stdout).toMatch(
      /^NAME\s+CIDRS\s+AGE\nextra\s+10\.200\.0\.0\/24\s+\d+s\nkubernetes\s+10\.96\.0\.0\/16,fd00:10:96::\/112\s+\d+[sm]\n$/,
    );
    const ips = (await s.kubectl(["get", "ipaddress"])).stdout;
    expect(ips).toMatch(/^NAME\s+PARENTREF\n/);
    expect(ips).toMatch(/^10\.200\.0\.5\s+services\/default\/alpha$/m);
    expect(ips).toMatch(/^10\.96\.0\.1\s+services\/default\/kubernetes$/m);
    const cidr = await s.kubectl(["describe", "servicecidr", "extra"]);
    expect(cidr.stdout).toMatch(/^Name:\s+extra\n/);
    expect(cidr.stdout).toMatch(/^CIDRs:\s+10\.200\.0\.0\/24$/m);
    const ip = await s.kubectl(["describe", "ipaddress", "10.200.0.5"]);
    expect(ip.stdout).toMatch(/^Parent Reference:\n\s+Group:\s*\n\s+Resource:\s+services\n\s+Namespace:\s+default\n\s+Name:\s+alpha$/m);
    const svc = await s.kubectl(["describe", "svc", "beta"]);
    expect(svc.stdout).toMatch(/^Type:\s+NodePort$/m);
    expect(svc.stdout).toMatch(/^IP:\s+10\.96\.0\.10$/m);
    expect(svc.stdout).toMatch(/^NodePort:\s+https\s+30443\/TCP$/m);
  });

  it("answers auth can-i and auth whoami (the kubeconfig's client certificate: kubernetes-admin in system:masters)", async () => {
    expect((await s.kubectl(["auth", "can-i", "create", "services"])).stdout).toBe("yes\n");
    const who = await s.kubectl(["auth", "whoami"]);
    expect(who.stdout).toMatch(
      /^ATTRIBUTE\s+VALUE\nUsername\s+kubernetes-admin\nGroups\s+\[system:masters system:authenticated\]\nExtra: authentication\.kubernetes\.io\/credential-id\s+\[X509SHA256=[0-9a-f]{64}\]\n$/,
    );
  });

  it("explains service.spec.ipFamilyPolicy from the published OpenAPI", async () => {
    const r = await s.kubectl(["explain", "service.spec.ipFamilyPolicy"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^KIND:\s+Service\nVERSION:\s+v1\n\nFIELD: ipFamilyPolicy <string>/);
  });

  it.each(["1.27", "1.30"].filter((v) => findKubectl(v, { warnAs: "server kubectl tests" }) !== null))(
    "kubectl %s lists and creates too",
    async (v) => {
      const bin = findKubectl(v)!;
      const r = await s.kubectl(["create", "service", "clusterip", `old-${v.replace(".", "-")}`, "--tcp=80"], { bin });
      expect(r.stdout, r.stderr).toBe(`service/old-${v.replace(".", "-")} created\n`);
      expect((await s.kubectl(["get", "svc", `old-${v.replace(".", "-")}`], { bin })).stdout).toMatch(
        /ClusterIP\s+10\.96\.\d+\.\d+\s+<none>\s+80\/TCP/,
      );
    },
  );
});
