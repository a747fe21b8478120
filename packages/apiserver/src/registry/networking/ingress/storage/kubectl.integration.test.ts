/**
 * Real kubectl 1.33 against networking.k8s.io/v1's Ingresses, IngressClasses and NetworkPolicies:
 * `create ingress` (its protobuf body), `apply`, `get` with printIngress's, printIngressClass's and
 * printNetworkPolicy's columns, `describe` (describe.go's IngressDescriber with its missing-Service
 * error lines, IngressClassDescriber, the NetworkPolicy long form), `api-resources` rows as a 1.33
 * cluster's, and `delete`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, startTestServer, type TestServer } from "../../../../server/testing.ts";

const manifests = `apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata:
  name: nginx
  annotations: {ingressclass.kubernetes.io/is-default-class: "true"}
spec:
  controller: k8s.io/ingress-nginx
  parameters: {apiGroup: k8s.example.com, kind: IngressParameters, name: external-lb}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: db, labels: {app: db}}
spec:
  podSelector: {matchLabels: {role: db}}
  policyTypes: [Ingress, Egress]
  ingress:
  - from:
    - ipBlock: {cidr: 172.17.0.0/16, except: [172.17.1.0/24]}
    - namespaceSelector: {matchLabels: {project: myproject}}
    - podSelector: {matchLabels: {role: frontend}}
    ports: [{protocol: TCP, port: 6379}]
  egress:
  - to: [{ipBlock: {cidr: 10.0.0.0/24}}]
    ports: [{protocol: TCP, port: 32000, endPort: 32768}]
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: deny-all}
spec:
  podSelector: {}
`;

describe.skipIf(!haveKubectl())("real kubectl 1.33 and networking.k8s.io/v1 Ingress, IngressClass, NetworkPolicy", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("api-resources lists the group's rows as a 1.33 cluster does", async () => {
    const r = await s.kubectl(["api-resources", "--api-group=networking.k8s.io"]);
    expect(r.stdout, r.stderr).toBe(
      "NAME              SHORTNAMES   APIVERSION             NAMESPACED   KIND\n" +
        "ingressclasses                 networking.k8s.io/v1   false        IngressClass\n" +
        "ingresses         ing          networking.k8s.io/v1   true         Ingress\n" +
        "ipaddresses       ip           networking.k8s.io/v1   false        IPAddress\n" +
        "networkpolicies   netpol       networking.k8s.io/v1   true         NetworkPolicy\n" +
        "servicecidrs                   networking.k8s.io/v1   false        ServiceCIDR\n",
    );
  });

  it("create ingress with a class, a rule and TLS; describe shows the missing Service's error", async () => {
    const c = await s.kubectl(["create", "ingress", "web", "--class=nginx", "--rule=foo.com/bar=svc1:8080,tls=my-cert"]);
    expect(c.stdout, c.stderr).toBe("ingress.networking.k8s.io/web created\n");
    const y = await s.kubectl(["get", "ing", "web", "-o", "jsonpath={.spec.rules[0].http.paths[0].pathType} {.spec.tls[0].secretName}"]);
    expect(y.stdout).toBe("Exact my-cert");
    const d = await s.kubectl(["describe", "ingress", "web"]);
    expect(d.stdout, d.stderr).toBe(
      [
        "Name:             web",
        "Labels:           <none>",
        "Namespace:        default",
        "Address:          ",
        "Ingress Class:    nginx",
        "Default backend:  <default>",
        "TLS:",
        "  my-cert terminates foo.com",
        "Rules:",
        "  Host        Path  Backends",
        "  ----        ----  --------",
        "  foo.com     ",
        '              /bar   svc1:8080 (<error: services "svc1" not found>)',
        "Annotations:  <none>",
        "Events:       <none>",
        "",
      ].join("\n"),
    );
  });

  it("apply an IngressClass and NetworkPolicies; get ing,ingressclass,netpol; describe them", async () => {
    const a = await s.kubectl(["apply", "-f", "-"], { input: manifests });
    expect(a.stdout, a.stderr).toBe(
      "ingressclass.networking.k8s.io/nginx created\nnetworkpolicy.networking.k8s.io/db created\nnetworkpolicy.networking.k8s.io/deny-all created\n",
    );
    const svc = await s.kubectl(["create", "service", "clusterip", "svc2", "--tcp=80:8080"]);
    expect(svc.stdout, svc.stderr).toBe("service/svc2 created\n");
    // No class given: DefaultIngressClass sets the default one.
    const m = await s.kubectl([
      "create",
      "ingress",
      "multi",
      "--default-backend=svc2:80",
      "--rule=a.com/*=svc2:80",
      "--rule=b.com/x=svc1:http",
    ]);
    expect(m.stdout, m.stderr).toBe("ingress.networking.k8s.io/multi created\n");

    const g = await s.kubectl(["get", "ing,ingressclass,netpol"]);
    const lines = g.stdout.split("\n");
    expect(lines[0]).toMatch(/^NAME\s+CLASS\s+HOSTS\s+ADDRESS\s+PORTS\s+AGE$/);
    expect(g.stdout).toMatch(/^ingress\.networking\.k8s\.io\/multi\s+nginx\s+a\.com,b\.com\s+80\s+\d+s$/m);
    expect(g.stdout).toMatch(/^ingress\.networking\.k8s\.io\/web\s+nginx\s+foo\.com\s+80, 443\s+\d+s$/m);
    expect(g.stdout).toMatch(/^NAME\s+CONTROLLER\s+PARAMETERS\s+AGE$/m);
    expect(g.stdout).toMatch(
      /^ingressclass\.networking\.k8s\.io\/nginx\s+k8s\.io\/ingress-nginx\s+IngressParameters\.k8s\.example\.com\/external-lb\s+\d+s$/m,
    );
    expect(g.stdout).toMatch(/^NAME\s+POD-SELECTOR\s+AGE$/m);
    expect(g.stdout).toMatch(/^networkpolicy\.networking\.k8s\.io\/deny-all\s+<none>\s+\d+s$/m);

    const dm = await s.kubectl(["describe", "ingress", "multi"]);
    expect(dm.stdout, dm.stderr).toContain(
      [
        "Default backend:  svc2:80 (<none>)",
        "Rules:",
        "  Host        Path  Backends",
        "  ----        ----  --------",
        "  a.com       ",
        "              /   svc2:80 (<none>)",
        "  b.com       ",
        '              /x   svc1:http (<error: services "svc1" not found>)',
      ].join("\n"),
    );
    const dc = await s.kubectl(["describe", "ingressclass", "nginx"]);
    expect(dc.stdout).toBe(
      "Name:         nginx\nLabels:       <none>\nAnnotations:  ingressclass.kubernetes.io/is-default-class: true\nController:   k8s.io/ingress-nginx\n" +
        "Parameters:\n  APIGroup:  k8s.example.com\n  Kind:      IngressParameters\n  Name:      external-lb\nEvents:      <none>\n",
    );
    const dn = await s.kubectl(["describe", "netpol", "db"]);
    expect(dn.stdout.replace(/^Created on:.*$/m, "Created on:")).toBe(
      [
        "Name:         db",
        "Namespace:    default",
        "Created on:",
        "Labels:       app=db",
        "Annotations:  <none>",
        "Spec:",
        "  PodSelector:     role=db",
        "  Allowing ingress traffic:",
        "    To Port: 6379/TCP",
        "    From:",
        "      IPBlock:",
        "        CIDR: 172.17.0.0/16",
        "        Except: 172.17.1.0/24",
        "    From:",
        "      NamespaceSelector: project=myproject",
        "    From:",
        "      PodSelector: role=frontend",
        "  Allowing egress traffic:",
        "    To Port Range: 32000-32768/TCP",
        "    To:",
        "      IPBlock:",
        "        CIDR: 10.0.0.0/24",
        "        Except: ",
        "  Policy Types: Ingress, Egress",
        "",
      ].join("\n"),
    );
    // time.Time.String in kubectl's time.Local.
    expect(dn.stdout).toMatch(/^Created on:   \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4} \S+$/m);
  });

  it("delete", async () => {
    const d = await s.kubectl(["delete", "ing", "web"]);
    expect(d.stdout, d.stderr).toBe('ingress.networking.k8s.io "web" deleted\n');
    const n = await s.kubectl(["delete", "netpol", "deny-all"]);
    expect(n.stdout, n.stderr).toBe('networkpolicy.networking.k8s.io "deny-all" deleted\n');
  });
});
