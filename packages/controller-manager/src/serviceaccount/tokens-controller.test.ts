/**
 * tokens_controller_test.go TestTokenCreation: which ServiceAccount and Secret events lead to which
 * API calls, on in-memory informers and a recording client; and the token the controller signs.
 */
import { generateKeyPairSync } from "node:crypto";
import type { Secret, ServiceAccount } from "@servicenet/api";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { JWTTokenGenerator, legacyIssuer } from "@servicenet/component-base/serviceaccount";
import { describe, expect, it } from "vitest";
import { TokensController } from "./tokens-controller.ts";
import type { TokensClient } from "./tokens-client.ts";

const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const generator = new JWTTokenGenerator(legacyIssuer, rsa.privateKey);
const rootCA = "CA Data";
const b64 = (s: string) => Buffer.from(s).toString("base64");

const tokenSecretReferences = () => [{ name: "token-secret-1" }];
const serviceAccount = (secrets: { name: string }[] = []): ServiceAccount => ({
  metadata: { name: "default", uid: "12345", namespace: "default", resourceVersion: "1" },
  ...(secrets.length > 0 ? { secrets } : {}),
});
/** createdTokenSecret / serviceAccountTokenSecret: a populated token Secret. */
const tokenSecret = (over: { data?: Record<string, string>; annotations?: Record<string, string> } = {}): Secret => ({
  metadata: {
    name: "token-secret-1",
    namespace: "default",
    uid: "23456",
    resourceVersion: "1",
    annotations: { "kubernetes.io/service-account.name": "default", "kubernetes.io/service-account.uid": "12345", ...over.annotations },
  },
  type: "kubernetes.io/service-account-token",
  data: over.data ?? { token: b64("ABC"), "ca.crt": b64(rootCA), namespace: b64("default") },
});
const withoutKey = (key: string): Secret => {
  const s = tokenSecret();
  delete s.data![key];
  return s;
};
const opaqueSecret = (): Secret => ({ metadata: { name: "regular-secret-1", namespace: "default", uid: "23456", resourceVersion: "1" } });

interface Case {
  existingServiceAccount?: ServiceAccount;
  existingSecrets?: Secret[];
  addedServiceAccount?: ServiceAccount;
  updatedServiceAccount?: ServiceAccount;
  deletedServiceAccount?: ServiceAccount;
  addedSecret?: Secret;
  updatedSecret?: Secret;
  deletedSecret?: Secret;
  expectedActions: string[];
}

const cases: Record<string, Case> = {
  "new serviceaccount with no secrets": { addedServiceAccount: serviceAccount(), expectedActions: [] },
  "new serviceaccount with token secrets": {
    existingSecrets: [tokenSecret()],
    addedServiceAccount: serviceAccount(tokenSecretReferences()),
    expectedActions: [],
  },
  "updated serviceaccount with no secrets": { updatedServiceAccount: serviceAccount(), expectedActions: [] },
  "deleted serviceaccount with no secrets": { deletedServiceAccount: serviceAccount(), expectedActions: [] },
  "deleted serviceaccount with secret reference": {
    existingSecrets: [tokenSecret()],
    deletedServiceAccount: serviceAccount(tokenSecretReferences()),
    expectedActions: ["delete secrets/token-secret-1 uid=23456"],
  },
  "deleted serviceaccount with unreferenced token secret": {
    existingSecrets: [tokenSecret()],
    deletedServiceAccount: serviceAccount(),
    expectedActions: ["delete secrets/token-secret-1 uid=23456"],
  },
  "deleted serviceaccount with non-token secrets": {
    existingSecrets: [opaqueSecret()],
    deletedServiceAccount: serviceAccount(tokenSecretReferences()),
    expectedActions: [],
  },
  "added secret without serviceaccount": {
    addedSecret: tokenSecret(),
    expectedActions: ["get serviceaccounts/default", "delete secrets/token-secret-1 uid=23456"],
  },
  "added secret with serviceaccount": {
    existingServiceAccount: serviceAccount(tokenSecretReferences()),
    addedSecret: tokenSecret(),
    expectedActions: [],
  },
  "added token secret without token data": {
    existingServiceAccount: serviceAccount(tokenSecretReferences()),
    addedSecret: withoutKey("token"),
    expectedActions: ["get secrets/token-secret-1", "update secrets/token-secret-1 [ca.crt namespace token]"],
  },
  "added token secret without ca data": {
    existingServiceAccount: serviceAccount(tokenSecretReferences()),
    addedSecret: withoutKey("ca.crt"),
    expectedActions: ["get secrets/token-secret-1", "update secrets/token-secret-1 [ca.crt namespace token]"],
  },
  "added token secret with mismatched ca data": {
    existingServiceAccount: serviceAccount(tokenSecretReferences()),
    addedSecret: tokenSecret({ data: { token: b64("ABC"), "ca.crt": b64("mismatched"), namespace: b64("default") } }),
    expectedActions: ["get secrets/token-secret-1", "update secrets/token-secret-1 [ca.crt namespace token]"],
  },
  "added token secret without namespace data": {
    existingServiceAccount: serviceAccount(tokenSecretReferences()),
    addedSecret: withoutKey("namespace"),
    expectedActions: ["get secrets/token-secret-1", "update secrets/token-secret-1 [ca.crt namespace token]"],
  },
  "added token secret with custom namespace data": {
    existingServiceAccount: serviceAccount(tokenSecretReferences()),
    addedSecret: tokenSecret({ data: { token: b64("ABC"), "ca.crt": b64(rootCA), namespace: b64("custom") } }),
    expectedActions: [],
  },
  "updated secret without serviceaccount": {
    updatedSecret: tokenSecret(),
    expectedActions: ["get serviceaccounts/default", "delete secrets/token-secret-1 uid=23456"],
  },
  "updated secret of a recreated serviceaccount (another uid)": {
    existingServiceAccount: { ...serviceAccount(), metadata: { ...serviceAccount().metadata, uid: "99999" } },
    updatedSecret: tokenSecret(),
    expectedActions: ["get serviceaccounts/default", "delete secrets/token-secret-1 uid=23456"],
  },
  "updated secret with serviceaccount": {
    existingServiceAccount: serviceAccount(tokenSecretReferences()),
    updatedSecret: tokenSecret(),
    expectedActions: [],
  },
  "updated token secret without token data": {
    existingServiceAccount: serviceAccount(tokenSecretReferences()),
    updatedSecret: withoutKey("token"),
    expectedActions: ["get secrets/token-secret-1", "update secrets/token-secret-1 [ca.crt namespace token]"],
  },
  "a user's token secret without the uid annotation gets it with the token": {
    existingServiceAccount: serviceAccount(),
    addedSecret: {
      ...withoutKey("token"),
      metadata: { ...tokenSecret().metadata, annotations: { "kubernetes.io/service-account.name": "default" } },
    },
    expectedActions: ["get secrets/token-secret-1", "update secrets/token-secret-1 [ca.crt namespace token]"],
  },
  "deleted secret without serviceaccount": { deletedSecret: tokenSecret(), expectedActions: [] },
  "deleted secret with serviceaccount with reference": {
    existingServiceAccount: serviceAccount(tokenSecretReferences()),
    deletedSecret: tokenSecret(),
    expectedActions: ["get serviceaccounts/default", "update serviceaccounts/default secrets=[]"],
  },
  "deleted secret with serviceaccount without reference": {
    existingServiceAccount: serviceAccount(),
    deletedSecret: tokenSecret(),
    expectedActions: ["get serviceaccounts/default"],
  },
  "non-token secrets are not watched": { addedSecret: opaqueSecret(), expectedActions: [] },
};

function setup(c: Case) {
  const serviceAccounts = new MemoryInformer<ServiceAccount>(c.existingServiceAccount ? [c.existingServiceAccount] : []);
  const secrets = new MemoryInformer<Secret>(c.existingSecrets ?? []);
  const actions: string[] = [];
  const updated: Secret[] = [];
  const client: TokensClient = {
    getSecret: (_ns, name) => {
      actions.push(`get secrets/${name}`);
      return Promise.resolve(secrets.get(`default/${name}`));
    },
    updateSecret: (s) => {
      actions.push(
        `update secrets/${s.metadata.name} [${Object.keys(s.data ?? {})
          .sort()
          .join(" ")}]`,
      );
      updated.push(s);
      return Promise.resolve(undefined);
    },
    deleteSecret: (_ns, name, uid) => {
      actions.push(`delete secrets/${name} uid=${uid}`);
      return Promise.resolve(undefined);
    },
    getServiceAccount: (_ns, name) => {
      actions.push(`get serviceaccounts/${name}`);
      return Promise.resolve(c.existingServiceAccount ?? c.deletedServiceAccount);
    },
    updateServiceAccount: (sa) => {
      actions.push(`update serviceaccounts/${sa.metadata.name} secrets=${JSON.stringify((sa.secrets ?? []).map((r) => r.name))}`);
      return Promise.resolve();
    },
  };
  // The live client sees the ServiceAccount only when the case says it exists.
  if (c.existingServiceAccount === undefined)
    client.getServiceAccount = (_ns, name) => (actions.push(`get serviceaccounts/${name}`), Promise.resolve(undefined));
  const ctrl = new TokensController({ serviceAccounts, secrets, client, token: generator, rootCA });
  // As upstream's test fills the indexers directly: the existing objects queue nothing.
  for (const q of [ctrl.serviceAccountQueue, ctrl.secretQueue]) while (q.len() > 0) void q.get().then((k) => k !== undefined && q.done(k));
  return { ctrl, serviceAccounts, secrets, actions, updated };
}

/** Runs the queued keys through their syncs, as one worker of each queue would. */
async function drain(ctrl: TokensController): Promise<void> {
  for (const [queue, sync] of [
    [ctrl.serviceAccountQueue, (k: string) => ctrl.syncServiceAccount(k)],
    [ctrl.secretQueue, (k: string) => ctrl.syncSecret(k)],
  ] as const) {
    while (queue.len() > 0) {
      const key = await queue.get();
      if (key === undefined) break;
      await sync(key);
      queue.done(key);
    }
  }
}

describe("TestTokenCreation", () => {
  it.each(Object.entries(cases))("%s", async (_name, c) => {
    const { ctrl, serviceAccounts, secrets, actions } = setup(c);
    for (const sa of [c.addedServiceAccount, c.updatedServiceAccount].filter((x) => x !== undefined)) serviceAccounts.set(sa);
    if (c.deletedServiceAccount !== undefined) {
      serviceAccounts.set(c.deletedServiceAccount);
      serviceAccounts.remove("default/default");
    }
    for (const s of [c.addedSecret, c.updatedSecret].filter((x) => x !== undefined)) secrets.set(s);
    if (c.deletedSecret !== undefined) {
      secrets.set(c.deletedSecret);
      secrets.remove("default/token-secret-1");
    }
    await drain(ctrl);
    expect(actions).toEqual(c.expectedActions);
  });
});

describe("the populated token Secret", () => {
  it("holds a legacy token naming the ServiceAccount and the Secret, the namespace, the root CA and both annotations", async () => {
    const secret = {
      ...withoutKey("token"),
      metadata: { ...tokenSecret().metadata, annotations: { "kubernetes.io/service-account.name": "default" } },
    };
    const { ctrl, secrets, updated } = setup({ existingServiceAccount: serviceAccount(), expectedActions: [] });
    secrets.set(secret);
    await drain(ctrl);
    const s = updated[0]!;
    expect(s.metadata.annotations).toEqual({
      "kubernetes.io/service-account.name": "default",
      "kubernetes.io/service-account.uid": "12345",
    });
    const token = Buffer.from(s.data!["token"]!, "base64").toString();
    const claims = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;
    expect(claims).toEqual({
      iss: "kubernetes/serviceaccount",
      sub: "system:serviceaccount:default:default",
      "kubernetes.io/serviceaccount/namespace": "default",
      "kubernetes.io/serviceaccount/secret.name": "token-secret-1",
      "kubernetes.io/serviceaccount/service-account.name": "default",
      "kubernetes.io/serviceaccount/service-account.uid": "12345",
    });
    expect(Buffer.from(s.data!["ca.crt"]!, "base64").toString()).toBe(rootCA);
    expect(Buffer.from(s.data!["namespace"]!, "base64").toString()).toBe("default");
  });

  it("skips a Secret whose cached copy is behind the live one (the update event comes later)", async () => {
    const { ctrl, secrets, actions } = setup({ existingServiceAccount: serviceAccount(), expectedActions: [] });
    const live = withoutKey("token");
    secrets.set(live);
    // The informer's copy is an older version than the live one.
    await ctrl.generateTokenIfNeeded(serviceAccount(), { ...live, metadata: { ...live.metadata, resourceVersion: "0" } });
    expect(actions).toEqual(["get secrets/token-secret-1"]);
  });
});
