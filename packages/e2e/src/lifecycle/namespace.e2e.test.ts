/**
 * Namespace lifecycle with real processes (the apiserver and the controller-manager with its
 * namespace controller) and real kubectl 1.33: a namespace held in Terminating by a finalizer on
 * its content, refusing new content with upstream's 403, gone once the finalizer is released;
 * `kubectl delete ns` waiting as on a real cluster; the immortal namespaces.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import { startApiserverProc, startControllerManagerProc, tempDir, type ApiserverProc, type Proc } from "../framework/processes.ts";
import { haveKubectl, maskAges, runKubectl, runOurs } from "../kubectl/runners.ts";

const service = (ns: string, name: string, finalizers: string[] = []) =>
  JSON.stringify({
    apiVersion: "v1",
    kind: "Service",
    metadata: { name, namespace: ns, ...(finalizers.length > 0 ? { finalizers } : {}) },
    spec: { ports: [{ port: 80 }] },
  });

describe.skipIf(!haveKubectl())("namespace lifecycle with kubectl 1.33", () => {
  let api: ApiserverProc;
  let cm: Proc;
  let dir: string;
  const kubectl = (...argv: string[]) => runKubectl(api.kubeconfigPath, dir, argv);
  const kubectlIn = (input: string, ...argv: string[]) => runKubectl(api.kubeconfigPath, dir, argv, input);

  beforeAll(async () => {
    dir = tempDir("e2e-namespace");
    api = await startApiserverProc();
    cm = await startControllerManagerProc(api.kubeconfigPath, { synced: /"msg":"Caches are synced","controller":"namespace"/ });
  });
  afterAll(async () => {
    await cm?.stop("SIGKILL");
    await api?.close();
  });

  it("a finalizer on content holds the namespace in Terminating; new content is refused; release lets it go", async () => {
    expect((await kubectl("create", "namespace", "held")).stdout).toBe("namespace/held created\n");
    expect((await kubectlIn(service("held", "web", ["example.com/hold"]), "apply", "-f", "-")).stdout).toBe("service/web created\n");

    const del = await kubectl("delete", "namespace", "held", "--wait=false");
    expect(del).toMatchObject({ code: 0, stdout: 'namespace "held" deleted\n' });

    const get = await kubectl("get", "ns", "held");
    expect(maskAges(get.stdout)).toBe(maskAges("NAME   STATUS        AGE\nheld   Terminating   1s\n"));
    // servicenet-kubectl prints the same table.
    expect(maskAges((await runOurs(api.kubeconfigPath, ["get", "ns", "held"])).stdout)).toBe(maskAges(get.stdout));

    const refused = await kubectlIn(service("held", "late"), "apply", "-f", "-");
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      'services "late" is forbidden: unable to create new content in namespace held because it is being terminated',
    );

    // After the controller's grace period: the Service is marked, the conditions say what holds the namespace.
    const conditions = await eventually(
      async () => {
        const r = await kubectl(
          "get",
          "ns",
          "held",
          "-o",
          'jsonpath={range .status.conditions[*]}{.type}={.status}:{.message}{"\\n"}{end}',
        );
        return r.stdout.includes("NamespaceFinalizersRemaining=True") ? r.stdout : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(conditions).toContain("NamespaceContentRemaining=True:Some resources are remaining: services. has 1 resource instances");
    expect(conditions).toContain(
      "NamespaceFinalizersRemaining=True:Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances",
    );
    expect((await kubectl("get", "svc", "web", "-n", "held", "-o", "jsonpath={.metadata.deletionTimestamp}")).stdout).not.toBe("");
    expect((await kubectl("get", "ns", "held", "-o", "jsonpath={.status.phase}")).stdout).toBe("Terminating");

    const patched = await kubectl("patch", "svc", "web", "-n", "held", "--type=merge", "-p", '{"metadata":{"finalizers":null}}');
    expect(patched.code).toBe(0);
    // The controller retries after half its 15 s estimate (+1): gone within about 9 s.
    expect((await kubectl("wait", "--for=delete", "namespace/held", "--timeout=60s")).code).toBe(0);
    const gone = await kubectl("get", "ns", "held");
    expect(gone.stderr).toBe('Error from server (NotFound): namespaces "held" not found\n');
  });

  it("kubectl delete ns waits until the namespace controller has emptied and finalized it", async () => {
    await kubectl("create", "namespace", "plain");
    await kubectlIn(service("plain", "a"), "apply", "-f", "-");
    const started = Date.now();
    const del = await kubectl("delete", "namespace", "plain");
    expect(del).toMatchObject({ code: 0, stdout: 'namespace "plain" deleted\n' });
    // Not before upstream's 5 s namespaceDeletionGracePeriod.
    expect(Date.now() - started).toBeGreaterThanOrEqual(5_000);
    expect((await kubectl("get", "svc", "-n", "plain")).stdout).toBe("");
    expect((await kubectl("get", "ns", "plain")).code).not.toBe(0);
  });

  it.each(["default", "kube-system", "kube-public"])("%s may not be deleted", async (name) => {
    const r = await kubectl("delete", "namespace", name);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toBe(`Error from server (Forbidden): namespaces "${name}" is forbidden: this namespace may not be deleted\n`);
  });
});
