/**
 * Long-lived ServiceAccount tokens as the Kubernetes docs show them ("Manually create a long-lived
 * API token for a ServiceAccount"), through real kubectl 1.33: an in-process apiserver with TLS
 * and authentication, and the controller-manager's `serviceaccount-token-controller` signing with
 * the apiserver's key. After test/integration/serviceaccount/service_account_test.go
 * TestServiceAccountTokenAutoCreate's rows that hold in 1.33 (only explicit Secrets get a token):
 * the token authenticates as the ServiceAccount, a new ServiceAccount gets no Secret of its own,
 * and deleting the ServiceAccount deletes its token Secret and revokes the token.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startTestEnvironment, type TestEnvironment } from "@servicenet/apiserver/envtest";
import { ensureServiceAccountKeyFiles } from "@servicenet/client/util/keyutil";
import { testEnvironmentControllers } from "@servicenet/controller-manager";
import { eventually, findKubectl } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const kubectlBinary = findKubectl("1.33", { warnAs: "legacy ServiceAccount tokens (real kubectl)" });
const run = promisify(execFile);
const pki = join(tmpdir(), "servicenet-envtest-pki");

let env: TestEnvironment;

beforeAll(async () => {
  if (kubectlBinary === null) return;
  // The apiserver's kubeadm-style signing key (sa.key), which it makes in its pki directory.
  const { keyFile } = ensureServiceAccountKeyFiles(pki);
  env = await startTestEnvironment({
    tls: true,
    auth: true,
    pkiDir: pki,
    controllers: testEnvironmentControllers(["serviceaccount-token-controller"], { serviceAccountKeyFile: keyFile }),
  });
}, 120_000);
afterAll(() => env?.stop());

const kubectl = async (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
  try {
    const r = await run(kubectlBinary!, ["--kubeconfig", env.kubeconfigPath, ...args], { timeout: 120_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
};

const secretYAML = `apiVersion: v1
kind: Secret
metadata:
  name: build-robot-secret
  annotations:
    kubernetes.io/service-account.name: build-robot
type: kubernetes.io/service-account-token
`;

describe.skipIf(kubectlBinary === null)("legacy ServiceAccount token Secrets with real kubectl", () => {
  it("populates the Secret, authenticates its token with auth whoami, and revokes it with the ServiceAccount", async () => {
    expect((await kubectl("create", "serviceaccount", "build-robot")).stdout).toBe("serviceaccount/build-robot created\n");
    const file = join(env.kubeconfigPath, "..", "secret.yaml");
    writeFileSync(file, secretYAML);
    expect((await kubectl("apply", "-f", file)).stdout).toBe("secret/build-robot-secret created\n");
    const tokenOf = async () => (await kubectl("get", "secret", "build-robot-secret", "-o", "jsonpath={.data.token}")).stdout;
    expect(await eventually(async () => (await tokenOf()) !== "", { timeoutMs: 60_000 })).toBe(true);
    const token = Buffer.from(await tokenOf(), "base64").toString();
    const secret = JSON.parse((await kubectl("get", "secret", "build-robot-secret", "-o", "json")).stdout) as {
      metadata: { annotations: Record<string, string> };
      data: Record<string, string>;
    };
    const uid = (await kubectl("get", "sa", "build-robot", "-o", "jsonpath={.metadata.uid}")).stdout;
    expect(secret.metadata.annotations["kubernetes.io/service-account.uid"]).toBe(uid);
    expect(Buffer.from(secret.data["namespace"]!, "base64").toString()).toBe("default");
    expect(Buffer.from(secret.data["ca.crt"]!, "base64").toString()).toBe(env.caCert);
    // kubectl describe shows the token type's keys as upstream's describer does.
    expect((await kubectl("describe", "secret", "build-robot-secret")).stdout).toMatch(/^Type:\s+kubernetes\.io\/service-account-token$/m);

    // kubectl --token=... auth whoami: the ServiceAccount's identity (no credential-id for a legacy token).
    const who = await kubectl("--token", token, "auth", "whoami");
    expect(who.stdout).toMatch(
      /^ATTRIBUTE\s+VALUE\nUsername\s+system:serviceaccount:default:build-robot\nUID\s+[0-9a-f-]{36}\nGroups\s+\[system:serviceaccounts system:serviceaccounts:default system:authenticated\]\n$/,
    );
    // A ServiceAccount gets no token Secret on its own (LegacyServiceAccountTokenNoAutoGeneration).
    expect((await kubectl("get", "sa", "build-robot", "-o", "jsonpath={.secrets}")).stdout).toBe("");

    expect((await kubectl("delete", "serviceaccount", "build-robot")).stdout).toBe('serviceaccount "build-robot" deleted\n');
    expect(await eventually(async () => (await kubectl("get", "secret", "build-robot-secret")).code !== 0, { timeoutMs: 60_000 })).toBe(
      true,
    );
    const refused = await kubectl("--token", token, "auth", "whoami");
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/Unauthorized/);
  }, 240_000);
});
