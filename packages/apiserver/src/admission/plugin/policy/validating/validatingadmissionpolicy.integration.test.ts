/**
 * ValidatingAdmissionPolicy over HTTP, after upstream's
 * test/integration/apiserver/cel/validatingadmissionpolicy_test.go: policies and bindings are
 * created through the API, followed by the plugin's informers (a dry-run "test-marker" Lease
 * create tells when a binding is in effect, as upstream's createAndWaitReady), and the requests
 * they judge get kube-apiserver's codes and messages. Params are ConfigMaps, as upstream's.
 */
import { eventually } from "@servicenet/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { kubectl133, startTestServer, type TestServer } from "../../../../server/testing.ts";

const json = { "Content-Type": "application/json" };
const arv1 = "/apis/admissionregistration.k8s.io/v1";
const markerMessage = "marker denied; policy is ready";
let readyMessage = markerMessage;

interface Validation {
  expression: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
}

interface PolicyOptions {
  validations: Validation[];
  failurePolicy?: "Fail" | "Ignore";
  paramKind?: { apiVersion: string; kind: string };
  resources?: { group: string; resource: string; operations?: string[] };
}

/** makePolicy + withValidations + withFailurePolicy + withWaitReadyConstraintAndExpression. */
function makePolicy(name: string, o: PolicyOptions): unknown {
  const target = o.resources ?? { group: "", resource: "namespaces" };
  return {
    metadata: { name },
    spec: {
      failurePolicy: o.failurePolicy ?? "Fail",
      ...(o.paramKind ? { paramKind: o.paramKind } : {}),
      matchConstraints: {
        resourceRules: [
          {
            apiGroups: [target.group],
            apiVersions: ["v1"],
            operations: target.operations ?? ["CREATE"],
            resources: [target.resource],
          },
          {
            apiGroups: ["coordination.k8s.io"],
            apiVersions: ["v1"],
            operations: ["CREATE"],
            resources: ["leases"],
            resourceNames: ["test-marker"],
          },
        ],
      },
      validations: [{ expression: "object == null || object.metadata.name != 'test-marker'", message: markerMessage }, ...o.validations],
    },
  };
}

function makeBinding(name: string, policyName: string, extra: Record<string, unknown> = {}): unknown {
  return { metadata: { name }, spec: { policyName, validationActions: ["Deny"], ...extra } };
}

describe("ValidatingAdmissionPolicy over HTTP", () => {
  let s: TestServer;
  const created: string[] = [];

  const post = async (path: string, body: unknown, query = "") => {
    const r = await s.request(`${path}${query}`, { method: "POST", headers: json, body: JSON.stringify(body) });
    return { status: r.status, body: r.json() as { message?: string; reason?: string; code?: number }, warnings: r.headers.get("warning") };
  };
  const mustCreate = async (path: string, body: unknown) => {
    const r = await post(path, body);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  };
  /** Whether a binding judges the dry-run marker: it is refused, or warned about. */
  const markerJudged = async (ns: string): Promise<boolean> => {
    const r = await post(`/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`, { metadata: { name: "test-marker" } }, "?dryRun=All");
    return (r.body.message ?? r.warnings ?? "").includes(ns === "default" ? readyMessage : markerMessage);
  };
  /** createAndWaitReady: the bindings judge requests once the marker is judged in `namespaces`. */
  const createAndWaitReady = async (policy: unknown, ...bindings: unknown[]) => createAndWaitReadyIn(["default"], policy, ...bindings);
  const createAndWaitReadyIn = async (namespaces: string[], policy: unknown, ...bindings: unknown[]) => {
    await mustCreate(`${arv1}/validatingadmissionpolicies`, policy);
    created.push(`${arv1}/validatingadmissionpolicies/${(policy as { metadata: { name: string } }).metadata.name}`);
    for (const b of bindings) {
      await mustCreate(`${arv1}/validatingadmissionpolicybindings`, b);
      created.unshift(`${arv1}/validatingadmissionpolicybindings/${(b as { metadata: { name: string } }).metadata.name}`);
    }
    for (const ns of namespaces) await eventually(() => markerJudged(ns), { what: `the bindings to be in effect in ${ns}` });
  };

  beforeAll(async () => {
    s = await startTestServer();
  });
  afterEach(async () => {
    readyMessage = markerMessage;
    for (const path of created.splice(0)) await s.request(path, { method: "DELETE" });
    await eventually(
      async () => {
        const r = await post(
          "/apis/coordination.k8s.io/v1/namespaces/default/leases",
          { metadata: { name: "test-marker" } },
          "?dryRun=All",
        );
        return r.status === 201 && r.warnings === null;
      },
      { what: "the bindings to be gone" },
    );
  });
  afterAll(async () => {
    await s?.close();
  });

  it("TestMultiplePolicyBindings: each binding judges with its own params and namespaces", async () => {
    for (const ns of ["team-a", "team-b"]) {
      await mustCreate("/api/v1/namespaces", { metadata: { name: ns, labels: { team: ns } } });
      await mustCreate(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: "prefix" }, data: { prefix: `${ns}-` } });
    }
    const policy = makePolicy("prefix-policy", {
      paramKind: { apiVersion: "v1", kind: "ConfigMap" },
      resources: { group: "", resource: "services" },
      validations: [
        {
          expression: "object.metadata.name.startsWith(params.data.prefix)",
          messageExpression: "'name must start with ' + params.data.prefix",
        },
      ],
    });
    const bindingFor = (ns: string) =>
      makeBinding(`prefix-${ns}`, "prefix-policy", {
        paramRef: { name: "prefix", parameterNotFoundAction: "Deny" },
        matchResources: { namespaceSelector: { matchLabels: { team: ns } } },
      });
    await createAndWaitReadyIn(["team-a", "team-b"], policy, bindingFor("team-a"), bindingFor("team-b"));
    const svc = (name: string) => ({ metadata: { name }, spec: { ports: [{ port: 80 }] } });
    expect((await post("/api/v1/namespaces/team-a/services", svc("team-a-web"), "?dryRun=All")).status).toBe(201);
    const denied = await post("/api/v1/namespaces/team-a/services", svc("team-b-web"), "?dryRun=All");
    expect(denied.status).toBe(422);
    expect(denied.body.message).toBe(
      `services "team-b-web" is forbidden: ValidatingAdmissionPolicy 'prefix-policy' with binding 'prefix-team-a' denied request: name must start with team-a-`,
    );
    expect((await post("/api/v1/namespaces/team-b/services", svc("team-b-web"), "?dryRun=All")).status).toBe(201);
    // A namespace no binding selects is not judged.
    expect((await post("/api/v1/namespaces/default/services", svc("anything"), "?dryRun=All")).status).toBe(201);
  });

  it("TestPolicyWithParams: a missing param under parameterNotFoundAction Deny is a configuration error", async () => {
    // The configuration error judges the marker too.
    readyMessage = "no params found";
    await createAndWaitReady(
      makePolicy("needs-param", {
        paramKind: { apiVersion: "v1", kind: "ConfigMap" },
        resources: { group: "", resource: "services" },
        validations: [{ expression: "true" }],
      }),
      makeBinding("needs-param-binding", "needs-param", { paramRef: { name: "absent", parameterNotFoundAction: "Deny" } }),
    );
    const r = await post(
      "/api/v1/namespaces/default/services",
      { metadata: { name: "web" }, spec: { ports: [{ port: 80 }] } },
      "?dryRun=All",
    );
    expect(r.status).toBe(403);
    expect(r.body.reason).toBe("Forbidden");
    expect(r.body.message).toBe(
      "policy 'needs-param' with binding 'needs-param-binding' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
    );
  });

  it("judges updates and deletes with oldObject", async () => {
    await mustCreate("/api/v1/namespaces/default/services", {
      metadata: { name: "keep", labels: { locked: "true" } },
      spec: { ports: [{ port: 80 }] },
    });
    await createAndWaitReady(
      makePolicy("locked", {
        resources: { group: "", resource: "services", operations: ["UPDATE", "DELETE"] },
        validations: [
          { expression: "!has(oldObject.metadata.labels) || oldObject.metadata.labels['locked'] != 'true'", message: "locked" },
        ],
      }),
      makeBinding("locked-binding", "locked"),
    );
    const patched = await s.request("/api/v1/namespaces/default/services/keep", {
      method: "PATCH",
      headers: { "Content-Type": "application/merge-patch+json" },
      body: JSON.stringify({ metadata: { annotations: { a: "b" } } }),
    });
    expect(patched.status).toBe(422);
    const deleted = await s.request("/api/v1/namespaces/default/services/keep", { method: "DELETE" });
    expect(deleted.status).toBe(422);
    expect((deleted.json() as { message: string }).message).toBe(
      `services "keep" is forbidden: ValidatingAdmissionPolicy 'locked' with binding 'locked-binding' denied request: locked`,
    );
    // Still there: nothing half-done.
    expect((await s.request("/api/v1/namespaces/default/services/keep")).status).toBe(200);
    created.push("/api/v1/namespaces/default/services/keep");
  });

  it.skipIf(kubectl133 === "")("kubectl 1.33: a policy denying NodePort Services refuses `kubectl create service nodeport`", async () => {
    await createAndWaitReady(
      makePolicy("no-nodeport", {
        resources: { group: "", resource: "services" },
        validations: [{ expression: "object.spec.type != 'NodePort'", message: "NodePort Services are not allowed" }],
      }),
      makeBinding("no-nodeport-binding", "no-nodeport"),
    );
    const out = await s.kubectl(["create", "service", "nodeport", "web", "--tcp=80:80"]);
    expect(out.code).toBe(1);
    expect(out.stderr).toBe(
      `error: failed to create NodePort service: services "web" is forbidden: ValidatingAdmissionPolicy 'no-nodeport' with binding 'no-nodeport-binding' denied request: NodePort Services are not allowed\n`,
    );
    expect((await s.kubectl(["create", "service", "clusterip", "web", "--tcp=80:80", "--dry-run=server"])).code).toBe(0);
  });

  describe("Test_ValidateSecondaryAuthorization: the authorizer variable asks RBAC for the requesting user", () => {
    const rbacv1 = "/apis/rbac.authorization.k8s.io/v1";
    /** authutil.GrantUserAuthorization / GrantServiceAccountAuthorization: a ClusterRole and its binding. */
    const grant = async (name: string, subject: Record<string, string>, rules: unknown[]) => {
      await mustCreate(`${rbacv1}/clusterroles`, { metadata: { name }, rules });
      created.push(`${rbacv1}/clusterroles/${name}`);
      const roleRef = { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name };
      await mustCreate(`${rbacv1}/clusterrolebindings`, { metadata: { name }, roleRef, subjects: [subject] });
      created.push(`${rbacv1}/clusterrolebindings/${name}`);
    };
    const user = (name: string) => ({ apiGroup: "rbac.authorization.k8s.io", kind: "User", name });
    const createAs = async (who: string, path: string, body: unknown, uid = "1234") => {
      const r = await s.request(`${path}?dryRun=All`, {
        method: "POST",
        headers: { ...json, "Impersonate-User": who, "Impersonate-Uid": uid },
        body: JSON.stringify(body),
      });
      return { status: r.status, body: r.json() as { message?: string; reason?: string } };
    };
    /** serviceAccountClient: creates the ServiceAccount and answers its UID, which the client impersonates. */
    const createServiceAccount = async (name: string): Promise<string> => {
      const r = await post("/api/v1/namespaces/default/serviceaccounts", { metadata: { name } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      created.push(`/api/v1/namespaces/default/serviceaccounts/${name}`);
      return (r.body as { metadata: { uid: string } }).metadata.uid;
    };
    // The principal may always create namespaces, so that the policy is what decides.
    const namespaces = { verbs: ["create", "update"], apiGroups: [""], resources: ["namespaces"] };

    it.each(
      [
        {
          name: "principal is allowed to create a specific deployment",
          rbac: { verbs: ["create"], apiGroups: ["apps"], resources: ["deployments/status"], resourceNames: ["charmander"] },
          expression:
            "authorizer.group('apps').resource('deployments').subresource('status').namespace('default').namespace('default').name('charmander').check('create').allowed()",
          allowed: true,
        },
        {
          name: "principal is not allowed to create a specific deployment",
          expression:
            "authorizer.group('apps').resource('deployments').subresource('status').namespace('default').name('charmander').check('create').allowed()",
          allowed: false,
        },
        {
          name: "principal is authorized for custom verb on current resource",
          rbac: { verbs: ["anthropomorphize"], apiGroups: [""], resources: ["namespaces"] },
          expression: "authorizer.requestResource.check('anthropomorphize').allowed()",
          allowed: true,
        },
        {
          name: "principal is not authorized for custom verb on current resource",
          expression: "authorizer.requestResource.check('anthropomorphize').allowed()",
          allowed: false,
        },
        {
          name: "serviceaccount is authorized for custom verb on current resource",
          extraAccount: { verbs: ["anthropomorphize"], apiGroups: [""], resources: ["pods"] },
          expression: "authorizer.serviceAccount('default', 'extra-acct').group('').resource('pods').check('anthropomorphize').allowed()",
          allowed: true,
        },
      ].flatMap((c) =>
        // Each row as a user and as a service account (upstream's "user" and "serviceaccount" clients).
        [
          { ...c, client: "user", who: "alice", subject: user("alice") },
          {
            ...c,
            client: "serviceaccount",
            who: "system:serviceaccount:default:test-service-acct",
            subject: { kind: "ServiceAccount", name: "test-service-acct", namespace: "default" },
          },
        ],
      ),
    )("$name ($client)", async ({ rbac, extraAccount, expression, allowed, client, who, subject }) => {
      const uid = client === "serviceaccount" ? await createServiceAccount(subject.name) : "1234";
      if (extraAccount) {
        await createServiceAccount("extra-acct");
        await grant("validate-authz-extra", { kind: "ServiceAccount", name: "extra-acct", namespace: "default" }, [
          namespaces,
          extraAccount,
        ]);
      }
      await grant("validate-authz-principal", subject, rbac ? [namespaces, rbac] : [namespaces]);
      await createAndWaitReady(
        makePolicy("validate-authz", { validations: [{ expression }] }),
        makeBinding("validate-authz-binding", "validate-authz"),
      );
      const ns = { metadata: { name: "test-authz" } };
      if (allowed) {
        // Granted rules reach the authorizer through its informers: wait for them.
        await eventually(async () => (await createAs(who, "/api/v1/namespaces", ns, uid)).status === 201, {
          what: `${who} to be admitted`,
        });
        return;
      }
      await eventually(async () => (await createAs(who, "/api/v1/namespaces", ns, uid)).status !== 403, { what: `${who}'s RBAC grant` });
      const r = await createAs(who, "/api/v1/namespaces", ns, uid);
      expect(r.status).toBe(422);
      expect(r.body.reason).toBe("Invalid");
      expect(r.body.message).toBe(
        `namespaces "test-authz" is forbidden: ValidatingAdmissionPolicy 'validate-authz' with binding 'validate-authz-binding' denied request: failed expression: ${expression}`,
      );
    });

    it("denies a Service create to a user who may not patch Services in its namespace, and admits one who may", async () => {
      const create = { verbs: ["create"], apiGroups: [""], resources: ["services"] };
      await grant("validate-authz-carol", user("carol"), [create]);
      await grant("validate-authz-dave", user("dave"), [create, { verbs: ["patch"], apiGroups: [""], resources: ["services"] }]);
      const expression = "authorizer.group('').resource('services').namespace(object.metadata.namespace).check('patch').allowed()";
      await createAndWaitReady(
        makePolicy("services-need-patch", { validations: [{ expression }], resources: { group: "", resource: "services" } }),
        makeBinding("services-need-patch-binding", "services-need-patch"),
      );
      const svc = { metadata: { name: "web" }, spec: { ports: [{ port: 80 }] } };
      await eventually(async () => (await createAs("dave", "/api/v1/namespaces/default/services", svc)).status === 201, {
        what: "dave to be admitted",
      });
      await eventually(async () => (await createAs("carol", "/api/v1/namespaces/default/services", svc)).status !== 403, {
        what: "carol's RBAC grant",
      });
      const r = await createAs("carol", "/api/v1/namespaces/default/services", svc);
      expect(r.status).toBe(422);
      expect(r.body.message).toBe(
        `services "web" is forbidden: ValidatingAdmissionPolicy 'services-need-patch' with binding 'services-need-patch-binding' denied request: failed expression: ${expression}`,
      );
    });
  });
});
