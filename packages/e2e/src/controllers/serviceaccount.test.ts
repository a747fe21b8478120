/**
 * The serviceaccount controller and Secrets through real kubectl 1.33: an in-process apiserver
 * (`@servicenet/apiserver/envtest`) and the controller-manager's `serviceaccount` controller over
 * HTTP. A new namespace gets its `default` ServiceAccount, one deleted comes back (upstream
 * test/e2e/auth/service_accounts.go "should ensure a single API token exists" flow, without
 * tokens), and a Secret made by `kubectl create secret generic` reads back as kubectl prints it.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { startTestEnvironment, type TestEnvironment } from "@servicenet/apiserver/envtest";
import { testEnvironmentControllers } from "@servicenet/controller-manager";
import { eventually, findKubectl } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const kubectlBinary = findKubectl("1.33", { warnAs: "serviceaccount controller (real kubectl)" });
const run = promisify(execFile);

let env: TestEnvironment;

beforeAll(async () => {
  if (kubectlBinary === null) return;
  env = await startTestEnvironment({ controllers: testEnvironmentControllers(["serviceaccount"]) });
});
afterAll(() => env?.stop());

const kubectl = async (...args: string[]): Promise<{ code: number; stdout: string }> => {
  try {
    return { code: 0, stdout: (await run(kubectlBinary!, ["--kubeconfig", env.kubeconfigPath, ...args], { timeout: 120_000 })).stdout };
  } catch (err) {
    return { code: (err as { code?: number }).code ?? 1, stdout: "" };
  }
};
const uidOfDefault = async (): Promise<string> =>
  (await kubectl("get", "sa", "default", "-n", "team", "-o", "jsonpath={.metadata.uid}")).stdout;

describe.skipIf(kubectlBinary === null)("serviceaccount controller with real kubectl", () => {
  it("creates default in a new namespace, recreates it when deleted; secrets read back as kubectl prints them", async () => {
    expect((await kubectl("create", "namespace", "team")).stdout).toBe("namespace/team created\n");
    expect(await eventually(async () => (await uidOfDefault()) !== "", { timeoutMs: 60_000 })).toBe(true);
    const first = await uidOfDefault();
    expect((await kubectl("get", "sa", "-n", "team")).stdout).toMatch(/^NAME\s+SECRETS\s+AGE\ndefault\s+0\s+\d+s\n$/);
    expect((await kubectl("delete", "sa", "default", "-n", "team")).stdout).toBe('serviceaccount "default" deleted\n');
    expect(await eventually(async () => ![first, ""].includes(await uidOfDefault()), { timeoutMs: 60_000 })).toBe(true);

    const created = await kubectl("create", "secret", "generic", "creds", "-n", "team", "--from-literal=token=abc");
    expect(created.stdout).toBe("secret/creds created\n");
    expect((await kubectl("get", "secret", "creds", "-n", "team")).stdout).toMatch(
      /^NAME\s+TYPE\s+DATA\s+AGE\ncreds\s+Opaque\s+1\s+\d+s\n$/,
    );
    expect((await kubectl("get", "secret", "creds", "-n", "team", "-o", "jsonpath={.data.token}")).stdout).toBe(
      Buffer.from("abc").toString("base64"),
    );
  }, 180_000);
});
