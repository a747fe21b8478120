import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import type { Secret, ServiceAccount } from "@servicenet/api";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { ensureServiceAccountKeyFiles } from "@servicenet/client/util/keyutil";
import { noopLogger } from "@servicenet/component-base/logs";
import { describe, expect, it } from "vitest";
import { startServiceAccountTokenController } from "./serviceaccount-token.ts";

const dir = mkdtempSync(join(tmpdir(), "sa-token-"));
const kc = new KubeConfig();
kc.loadFromClusterAndUser(
  { name: "c", server: "https://127.0.0.1:6443", caData: Buffer.from("CA").toString("base64"), skipTLSVerify: false },
  { name: "u" },
);
const informers = { serviceAccounts: new MemoryInformer<ServiceAccount>(), secrets: new MemoryInformer<Secret>() };
const use = ((k: "serviceAccounts" | "secrets") => informers[k]) as never;
const obs = { queue: (name: string) => new RateLimitingQueue<string>(name) };

// cmd/kube-controller-manager/app/controllermanager.go startServiceAccountTokenController.
describe("startServiceAccountTokenController", () => {
  it("is disabled without --service-account-private-key-file", () => {
    expect(startServiceAccountTokenController({}, kc, use, obs, noopLogger)).toBeUndefined();
  });
  it("refuses a key file that holds no private key, with upstream's message", () => {
    const bad = join(dir, "bad.key");
    writeFileSync(bad, "not a key\n");
    expect(() => startServiceAccountTokenController({ serviceAccountKeyFile: bad }, kc, use, obs, noopLogger)).toThrow(
      `error reading key for service account token controller: error reading private key file ${bad}: data does not contain a valid RSA or ECDSA private key`,
    );
  });
  it("starts with the key and the kubeconfig's CA", () => {
    const { keyFile } = ensureServiceAccountKeyFiles(dir);
    expect(startServiceAccountTokenController({ serviceAccountKeyFile: keyFile }, kc, use, obs, noopLogger)).toBeDefined();
  });
});
