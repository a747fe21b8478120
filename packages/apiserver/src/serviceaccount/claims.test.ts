import { StatusError } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import type { KubeObject } from "../storage/index.ts";
import { claims, Validator, type PrivateClaims, type PublicClaims, type ServiceAccountTokenGetter } from "./claims.ts";

const obj = (name: string, uid: string, namespace?: string, deletionTimestamp?: string): KubeObject => ({
  metadata: { name, uid, ...(namespace ? { namespace } : {}), ...(deletionTimestamp ? { deletionTimestamp } : {}) },
});

const sa = obj("myserviceaccount", "mysauid", "myns");
const pod = obj("mypod", "mypoduid", "myns");
const secret = obj("mysecret", "mysecretuid", "myns");
const node = obj("mynode", "mynodeuid");
const now = new Date(1_700_000_000_000);
const t = now.getTime() / 1000;

// pkg/serviceaccount/claims_test.go TestClaims.
describe("Claims", () => {
  it.each([
    { name: "basic", bound: {}, exp: 100, warn: 0, aud: [], k: {} },
    { name: "pod", bound: { pod }, exp: 100, warn: 0, aud: [], k: { pod: { name: "mypod", uid: "mypoduid" } } },
    { name: "secret", bound: { secret }, exp: 100, warn: 0, aud: [], k: { secret: { name: "mysecret", uid: "mysecretuid" } } },
    { name: "node", bound: { node }, exp: 100, warn: 0, aud: [], k: { node: { name: "mynode", uid: "mynodeuid" } } },
    {
      name: "pod with its node",
      bound: { pod, node },
      exp: 100,
      warn: 0,
      aud: ["1"],
      k: { pod: { name: "mypod", uid: "mypoduid" }, node: { name: "mynode", uid: "mynodeuid" } },
    },
    {
      name: "warnafter",
      bound: { pod },
      exp: 60 * 60 * 24,
      warn: 60 * 60,
      aud: [],
      k: { pod: { name: "mypod", uid: "mypoduid" }, warnafter: t + 3600 },
    },
  ])("$name", ({ bound, exp, warn, aud, k }) => {
    const c = claims(sa, bound, exp, warn, aud, now);
    expect(c.public).toEqual({
      sub: "system:serviceaccount:myns:myserviceaccount",
      aud,
      iat: t,
      nbf: t,
      exp: t + exp,
      jti: expect.any(String),
    });
    expect(c.private).toEqual({
      "kubernetes.io": { namespace: "myns", serviceaccount: { name: "myserviceaccount", uid: "mysauid" }, ...k },
    });
  });

  it("a token is bound to one kind of object", () => {
    expect(() => claims(sa, { pod, secret }, 100, 0, [], now)).toThrow("internal error, token can only be bound to one object type");
  });

  it("each token has its own jti", () => {
    expect(claims(sa, {}, 100, 0, [], now).public.jti).not.toBe(claims(sa, {}, 100, 0, [], now).public.jti);
  });
});

const notFound = (resource: string, name: string) => Promise.reject(StatusError.notFound({ group: "", resource }, name));

function getter(objs: { sa?: KubeObject; pod?: KubeObject; secret?: KubeObject; node?: KubeObject }): ServiceAccountTokenGetter {
  return {
    getServiceAccount: (_ns, name) =>
      objs.sa && objs.sa.metadata.name === name ? Promise.resolve(objs.sa) : notFound("serviceaccounts", name),
    getPod: (_ns, name) => (objs.pod && objs.pod.metadata.name === name ? Promise.resolve(objs.pod) : notFound("pods", name)),
    getSecret: (_ns, name) =>
      objs.secret && objs.secret.metadata.name === name ? Promise.resolve(objs.secret) : notFound("secrets", name),
    getNode: (name) => (objs.node && objs.node.metadata.name === name ? Promise.resolve(objs.node) : notFound("nodes", name)),
  };
}

const ago = (s: number): string => new Date(now.getTime() - s * 1000).toISOString();

// claims_test.go TestValidatePrivateClaims (and the time checks of Validate).
describe("Validator.validate", () => {
  const bound = (
    b: { pod?: KubeObject; secret?: KubeObject; node?: KubeObject },
    exp = 600,
  ): { pub: PublicClaims; priv: PrivateClaims } => {
    const c = claims(sa, b, exp, 0, ["api"], now);
    return { pub: c.public, priv: c.private };
  };
  it.each([
    { name: "valid", objs: { sa }, claims: bound({}), err: undefined },
    { name: "missing serviceaccount", objs: {}, claims: bound({}), err: 'serviceaccounts "myserviceaccount" not found' },
    {
      name: "deleted serviceaccount",
      objs: { sa: obj("myserviceaccount", "mysauid", "myns", ago(120)) },
      claims: bound({}),
      err: "service account myns/myserviceaccount has been deleted",
    },
    {
      name: "serviceaccount deleted within the leeway",
      objs: { sa: obj("myserviceaccount", "mysauid", "myns", ago(30)) },
      claims: bound({}),
      err: undefined,
    },
    {
      name: "serviceaccount uid mismatch",
      objs: { sa: obj("myserviceaccount", "other", "myns") },
      claims: bound({}),
      err: "service account UID (other) does not match claim (mysauid)",
    },
    { name: "valid pod", objs: { sa, pod }, claims: bound({ pod }), err: undefined },
    { name: "missing pod", objs: { sa }, claims: bound({ pod }), err: "service account token has been invalidated" },
    {
      name: "deleted pod",
      objs: { sa, pod: obj("mypod", "mypoduid", "myns", ago(120)) },
      claims: bound({ pod }),
      err: "service account token has been invalidated",
    },
    {
      name: "pod uid mismatch",
      objs: { sa, pod: obj("mypod", "other", "myns") },
      claims: bound({ pod }),
      err: "pod UID (other) does not match service account pod ref claim (mypoduid)",
    },
    { name: "missing secret", objs: { sa }, claims: bound({ secret }), err: "service account token has been invalidated" },
    {
      name: "secret uid mismatch",
      objs: { sa, secret: obj("mysecret", "other", "myns") },
      claims: bound({ secret }),
      err: "secret UID (other) does not match service account secret ref claim (mysecretuid)",
    },
    { name: "valid node", objs: { sa, node }, claims: bound({ node }), err: undefined },
    { name: "missing node", objs: { sa }, claims: bound({ node }), err: "service account token has been invalidated" },
    {
      name: "node uid mismatch",
      objs: { sa, node: obj("mynode", "other") },
      claims: bound({ node }),
      err: "node UID (other) does not match service account node ref claim (mynodeuid)",
    },
    { name: "pod's node is not checked", objs: { sa, pod }, claims: bound({ pod, node }), err: undefined },
    { name: "expired", objs: { sa }, claims: bound({}, -61), err: "service account token has expired" },
    { name: "expired within the leeway", objs: { sa }, claims: bound({}, -59), err: undefined },
    {
      name: "not valid yet",
      objs: { sa },
      claims: { ...bound({}), pub: { ...bound({}).pub, nbf: t + 120 } },
      err: "service account token is not valid yet",
    },
  ])("$name", async ({ objs, claims: c, err }) => {
    const v = new Validator(getter(objs), () => now.getTime());
    if (err === undefined) await expect(v.validate(c.pub, c.priv)).resolves.toMatchObject({ name: "myserviceaccount", uid: "mysauid" });
    else await expect(v.validate(c.pub, c.priv)).rejects.toThrow(err);
  });

  it("names the bound pod, its node and the credential", async () => {
    const c = bound({ pod, node });
    const info = await new Validator(getter({ sa, pod }), () => now.getTime()).validate(c.pub, c.priv);
    expect(info).toEqual({
      namespace: "myns",
      name: "myserviceaccount",
      uid: "mysauid",
      podName: "mypod",
      podUID: "mypoduid",
      nodeName: "mynode",
      nodeUID: "mynodeuid",
      credentialID: `JTI=${c.pub.jti}`,
    });
  });
});
