/**
 * ServiceAccount and DefaultTolerationSeconds in a running apiserver's chain: a Pod as a real
 * cluster stores it, upstream's Forbidden when the ServiceAccount is missing, the flags, and
 * `--disable-admission-plugins`. Real kubectl 1.33 describes the Pod.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enabledAdmissionPlugins } from "../../../kubeapiserver/options/plugins.ts";
import { haveKubectl, startTestServer, type TestServer } from "../../../server/testing.ts";

type Obj = Record<string, unknown>;
const pod = (name: string, spec: Obj = {}) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name },
  spec: { containers: [{ name: "c", image: "nginx:1.27" }], ...spec },
});
const mountPath = "/var/run/secrets/kubernetes.io/serviceaccount";

describe("Pod admission (ServiceAccount, DefaultTolerationSeconds)", () => {
  let s: TestServer;
  let off: TestServer;
  beforeAll(async () => {
    [s, off] = await Promise.all([
      startTestServer({
        admissionPlugins: enabledAdmissionPlugins(),
        podAdmission: { notReadyTolerationSeconds: 300, unreachableTolerationSeconds: 120 },
      }),
      startTestServer({ admissionPlugins: enabledAdmissionPlugins({ disable: ["ServiceAccount", "DefaultTolerationSeconds"] }) }),
    ]);
    // The serviceaccount controller's job in a cluster.
    for (const srv of [s, off])
      expect((await srv.send("POST", "/api/v1/namespaces/default/serviceaccounts", { metadata: { name: "default" } })).status).toBe(201);
  });
  afterAll(async () => {
    await Promise.all([s?.close(), off?.close()]);
  });

  it("defaults the ServiceAccount, mounts the kube-api-access volume and adds the two tolerations", async () => {
    const r = await s.send("POST", "/api/v1/namespaces/default/pods", pod("p1"));
    expect(r.status).toBe(201);
    const spec = (r.json() as { spec: Obj }).spec;
    expect(spec["serviceAccountName"]).toBe("default");
    expect(spec["serviceAccount"]).toBe("default");
    const volumes = spec["volumes"] as Obj[];
    expect(volumes).toHaveLength(1);
    expect(volumes[0]!["name"]).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(volumes[0]!["projected"]).toEqual({
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: "token" } },
        { configMap: { name: "kube-root-ca.crt", items: [{ key: "ca.crt", path: "ca.crt" }] } },
        { downwardAPI: { items: [{ path: "namespace", fieldRef: { apiVersion: "v1", fieldPath: "metadata.namespace" } }] } },
      ],
      defaultMode: 420,
    });
    expect((spec["containers"] as Obj[])[0]!["volumeMounts"]).toEqual([{ name: volumes[0]!["name"], readOnly: true, mountPath }]);
    expect(spec["tolerations"]).toEqual([
      { key: "node.kubernetes.io/not-ready", operator: "Exists", effect: "NoExecute", tolerationSeconds: 300 },
      { key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoExecute", tolerationSeconds: 120 },
    ]);
  });

  it("refuses a Pod whose ServiceAccount does not exist, as kube-apiserver words it", async () => {
    const r = await s.send("POST", "/api/v1/namespaces/default/pods", pod("p2", { serviceAccountName: "missing" }));
    expect(r.status).toBe(403);
    expect(r.json()).toMatchObject({
      reason: "Forbidden",
      message: 'pods "p2" is forbidden: error looking up service account default/missing: serviceaccount "missing" not found',
      details: { name: "p2", kind: "pods" },
    });
  });

  it("leaves Pods alone when both plugins are disabled", async () => {
    const r = await off.send("POST", "/api/v1/namespaces/default/pods", pod("p3", { serviceAccountName: "missing" }));
    expect(r.status).toBe(201);
    const spec = (r.json() as { spec: Obj }).spec;
    expect(spec["volumes"]).toBeUndefined();
    expect(spec["tolerations"]).toBeUndefined();
  });

  it.runIf(haveKubectl())("kubectl describe pod shows the mount, the projected volume and the tolerations", async () => {
    const r = await s.kubectl(["describe", "pod", "p1"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(new RegExp(`Mounts:\\n {6}${mountPath} from kube-api-access-\\w{5} \\(ro\\)\\n`));
    expect(r.stdout).toContain(
      [
        "    Type:                    Projected (a volume that contains injected data from multiple sources)",
        "    TokenExpirationSeconds:  3607",
        "    ConfigMapName:           kube-root-ca.crt",
        "    Optional:                false",
        "    DownwardAPI:             true",
      ].join("\n"),
    );
    expect(r.stdout).toContain(
      "Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s\n                             node.kubernetes.io/unreachable:NoExecute op=Exists for 120s\n",
    );
  });
});
