/**
 * ValidatingAdmissionPolicy decisions, named after the cases of upstream's
 * test/integration/apiserver/cel/validatingadmissionpolicy_test.go and validating/dispatcher_test.go,
 * on the dispatcher directly (validatingadmissionpolicy.integration.test.ts has them over HTTP).
 */
import { StatusError } from "@servicenet/api";
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from "@servicenet/api/admissionregistration/v1";
import { describe, expect, it } from "vitest";
import type { Attributes } from "../../../attributes.ts";
import { validateValidatingAdmissionPolicy } from "@servicenet/api/admissionregistration/v1";
import { compileAdmissionExpression, compilePolicy } from "./compile.ts";
import { dispatch, type DispatchSources } from "./dispatcher.ts";

const serviceRules = {
  resourceRules: [{ apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE", "UPDATE"], resources: ["services"] }],
};

function policy(name: string, spec: ValidatingAdmissionPolicy["spec"]): ValidatingAdmissionPolicy {
  return { metadata: { name }, spec: { matchConstraints: serviceRules, ...spec } };
}

function binding(
  name: string,
  policyName: string,
  spec: Partial<ValidatingAdmissionPolicyBinding["spec"]> = {},
): ValidatingAdmissionPolicyBinding {
  return { metadata: { name }, spec: { policyName, validationActions: ["Deny"], ...spec } };
}

function createService(spec: Record<string, unknown>, labels: Record<string, string> = {}, namespace = "team-a"): Attributes {
  return {
    operation: "CREATE",
    name: "web",
    namespace,
    resource: { group: "", version: "v1", resource: "services" },
    subresource: "",
    kind: { group: "", version: "v1", kind: "Service" },
    object: { apiVersion: "v1", kind: "Service", metadata: { name: "web", namespace, labels }, spec },
    dryRun: false,
    userInfo: { username: "alice", groups: ["system:authenticated"] },
  };
}

const namespaces: Record<string, Record<string, string>> = { "team-a": { team: "a" }, "kube-system": {} };
const configMaps: Record<string, unknown> = {
  "team-a/limits": { metadata: { name: "limits", namespace: "team-a" }, data: { maxPorts: "1" } },
};
const sources: DispatchSources = {
  namespace: (name) => (name in namespaces ? { metadata: { name, labels: namespaces[name] } } : undefined),
  params: (_kind, ref, ns) => {
    const p = configMaps[`${ns}/${ref.name}`];
    return p === undefined ? [] : [p];
  },
};

function run(p: ValidatingAdmissionPolicy, b: ValidatingAdmissionPolicyBinding, a: Attributes) {
  return dispatch([{ policy: p, compiled: compilePolicy(p) }], [b], a, sources);
}

function denial(p: ValidatingAdmissionPolicy, b: ValidatingAdmissionPolicyBinding, a: Attributes): StatusError {
  try {
    run(p, b, a);
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error("the request was admitted");
}

const noNodePort = { expression: "object.spec.type != 'NodePort'" };

describe("TestValidateOnlyAdmissionPolicy", () => {
  it("denies with the validation's message, 422 Invalid, as kube-apiserver words it", () => {
    const err = denial(
      policy("no-nodeport", { validations: [{ ...noNodePort, message: "no NodePort Services" }] }),
      binding("b", "no-nodeport"),
      createService({ type: "NodePort" }),
    );
    const message = "ValidatingAdmissionPolicy 'no-nodeport' with binding 'b' denied request: no NodePort Services";
    expect(err.status).toMatchObject({ code: 422, reason: "Invalid", message: `services "web" is forbidden: ${message}` });
    expect(err.status.details).toEqual({ name: "web", kind: "services", causes: [{ message }] });
  });

  it("admits what the validation allows", () => {
    expect(run(policy("p", { validations: [noNodePort] }), binding("b", "p"), createService({ type: "ClusterIP" }))).toEqual({
      warnings: [],
      auditAnnotations: {},
    });
  });

  it("words a denial without a message by its expression", () => {
    expect(denial(policy("p", { validations: [noNodePort] }), binding("b", "p"), createService({ type: "NodePort" })).message).toMatch(
      /denied request: failed expression: object.spec.type != 'NodePort'$/,
    );
  });

  it("messageExpression", () => {
    const v = {
      ...noNodePort,
      message: "static",
      messageExpression: "'type ' + object.spec.type + ' is not allowed in ' + request.namespace",
    };
    expect(denial(policy("p", { validations: [v] }), binding("b", "p"), createService({ type: "NodePort" })).message).toMatch(
      /denied request: type NodePort is not allowed in team-a$/,
    );
  });

  it("a messageExpression that fails falls back to the message", () => {
    const v = { ...noNodePort, message: "static", messageExpression: "object.spec.missing" };
    expect(denial(policy("p", { validations: [v] }), binding("b", "p"), createService({ type: "NodePort" })).message).toMatch(
      /denied request: static$/,
    );
  });

  it("reason Forbidden gives 403", () => {
    const err = denial(
      policy("p", { validations: [{ ...noNodePort, reason: "Forbidden" }] }),
      binding("b", "p"),
      createService({ type: "NodePort" }),
    );
    expect(err.status).toMatchObject({ code: 403, reason: "Forbidden" });
  });

  it("validationActions Warn: admitted with a warning", () => {
    const r = run(
      policy("p", { validations: [{ ...noNodePort, message: "m" }] }),
      binding("b", "p", { validationActions: ["Warn"] }),
      createService({ type: "NodePort" }),
    );
    expect(r.warnings).toEqual(["Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': m"]);
  });

  it("validationActions Audit: admitted with the validation_failure annotation", () => {
    const r = run(
      policy("p", { validations: [{ ...noNodePort, message: "m" }] }),
      binding("b", "p", { validationActions: ["Audit"] }),
      createService({ type: "NodePort" }),
    );
    expect(JSON.parse(r.auditAnnotations["validation.policy.admission.k8s.io/validation_failure"]!)).toEqual([
      { message: "m", policy: "p", binding: "b", expressionIndex: 0, validationActions: ["Audit"] },
    ]);
  });

  it("auditAnnotations: published under the policy's name; null excluded; an error denies under Fail only", () => {
    const annotations = [
      { key: "example-key", valueExpression: "'object name: ' + object.metadata.name" },
      { key: "exclude-key", valueExpression: "null" },
    ];
    const r = run(policy("p", { auditAnnotations: annotations }), binding("b", "p"), createService({}));
    expect(r.auditAnnotations).toEqual({ "p/example-key": "object name: web" });
    const failing = [{ key: "example-key", valueExpression: "string(params.metadata.name)" }];
    const withParams = { auditAnnotations: failing, paramKind: { apiVersion: "v1", kind: "ConfigMap" } };
    expect(denial(policy("p", withParams), binding("b", "p"), createService({})).status).toMatchObject({
      code: 422,
      reason: "Invalid",
      message: `services "web" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: expression 'string(params.metadata.name)' resulted in error: no such key: metadata`,
    });
    expect(run(policy("p", { ...withParams, failurePolicy: "Ignore" }), binding("b", "p"), createService({})).auditAnnotations).toEqual({});
  });

  it("matchConstraints: other resources and operations are not validated", () => {
    const p = policy("p", {
      validations: [{ expression: "false" }],
      matchConstraints: { resourceRules: [{ apiGroups: [""], apiVersions: ["v1"], operations: ["UPDATE"], resources: ["services"] }] },
    });
    expect(run(p, binding("b", "p"), createService({})).warnings).toEqual([]);
  });

  it("namespaceSelector and objectSelector", () => {
    const p = policy("p", {
      validations: [{ expression: "false" }],
      matchConstraints: {
        ...serviceRules,
        namespaceSelector: { matchLabels: { team: "a" } },
        objectSelector: { matchLabels: { checked: "yes" } },
      },
    });
    expect(() => run(p, binding("b", "p"), createService({}, { checked: "yes" }))).toThrow(StatusError);
    expect(() => run(p, binding("b", "p"), createService({}, { checked: "no" }))).not.toThrow();
    expect(() => run(p, binding("b", "p"), createService({}, { checked: "yes" }, "kube-system"))).not.toThrow();
  });

  it("excludeResourceRules and the binding's matchResources", () => {
    const p = policy("p", {
      validations: [{ expression: "false" }],
      matchConstraints: {
        ...serviceRules,
        excludeResourceRules: [
          { apiGroups: [""], apiVersions: ["v1"], operations: ["*"], resources: ["services"], resourceNames: ["web"] },
        ],
      },
    });
    expect(() => run(p, binding("b", "p"), createService({}))).not.toThrow();
    const q = policy("q", { validations: [{ expression: "false" }] });
    const narrow = binding("b", "q", { matchResources: { ...serviceRules, namespaceSelector: { matchLabels: { team: "b" } } } });
    expect(() => run(q, narrow, createService({}))).not.toThrow();
  });

  it("matchConditions: false skips the policy, an error fails it under failurePolicy Fail", () => {
    const skip = policy("p", {
      validations: [{ expression: "false" }],
      matchConditions: [{ name: "only-lb", expression: "object.spec.type == 'LoadBalancer'" }],
    });
    expect(() => run(skip, binding("b", "p"), createService({ type: "NodePort" }))).not.toThrow();
    const broken = policy("p", {
      validations: [{ expression: "true" }],
      matchConditions: [{ name: "m", expression: "object.spec.nope == 1" }],
    });
    expect(denial(broken, binding("b", "p"), createService({})).message).toMatch(
      /denied request: expression 'object.spec.nope == 1' resulted in error: /,
    );
  });

  it("failurePolicy Ignore admits a request whose validation errors", () => {
    const p = policy("p", { failurePolicy: "Ignore", validations: [{ expression: "object.spec.nope == 1" }] });
    expect(() => run(p, binding("b", "p"), createService({}))).not.toThrow();
    expect(() => run({ ...p, spec: { ...p.spec, failurePolicy: "Fail" } }, binding("b", "p"), createService({}))).toThrow(StatusError);
  });

  it("variables", () => {
    const p = policy("p", {
      variables: [
        { name: "ports", expression: "object.spec.ports.map(p, p.port)" },
        { name: "many", expression: "size(variables.ports) > 1" },
      ],
      validations: [{ expression: "!variables.many", messageExpression: "'too many ports: ' + string(size(variables.ports))" }],
    });
    expect(denial(p, binding("b", "p"), createService({ ports: [{ port: 80 }, { port: 443 }] })).message).toMatch(
      /denied request: too many ports: 2$/,
    );
  });

  it("variables are lazy (cel/composition.go): an unread one never runs, a failing one is the reader's error", () => {
    const p = policy("p", {
      variables: [
        { name: "broken", expression: "object.spec.nope == 1" },
        { name: "fine", expression: "true" },
      ],
      validations: [{ expression: "variables.fine" }],
    });
    expect(() => run(p, binding("b", "p"), createService({}))).not.toThrow();
    const reading = { ...p, spec: { ...p.spec, validations: [{ expression: "variables.broken" }] } };
    expect(denial(reading, binding("b", "p"), createService({})).message).toMatch(
      /denied request: expression 'variables.broken' resulted in error: composited variable "broken" fails to evaluate: no such key: nope$/,
    );
  });

  it("paramKind with paramRef, and parameterNotFoundAction", () => {
    const p = policy("p", {
      paramKind: { apiVersion: "v1", kind: "ConfigMap" },
      validations: [{ expression: "size(object.spec.ports) <= int(params.data.maxPorts)", message: "too many ports" }],
    });
    const svc = createService({ ports: [{ port: 80 }, { port: 443 }] });
    expect(denial(p, binding("b", "p", { paramRef: { name: "limits" } }), svc).message).toMatch(/denied request: too many ports$/);
    expect(denial(p, binding("b", "p", { paramRef: { name: "absent", parameterNotFoundAction: "Deny" } }), svc).message).toMatch(
      /denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction$/,
    );
    expect(() => run(p, binding("b", "p", { paramRef: { name: "absent", parameterNotFoundAction: "Allow" } }), svc)).not.toThrow();
  });

  it("a validation that does not compile denies under failurePolicy Fail", () => {
    const err = denial(policy("p", { validations: [{ expression: "object.spec +" }] }), binding("b", "p"), createService({}));
    expect(err.message).toMatch(/denied request: compilation error: compilation failed: ERROR: <input>:1:\d+: Syntax error: /);
  });

  it("request, namespaceObject and oldObject are bound", () => {
    const p = policy("p", {
      validations: [
        { expression: "request.userInfo.username == 'alice' && namespaceObject.metadata.labels.team == 'a' && oldObject == null" },
      ],
    });
    expect(() => run(p, binding("b", "p"), createService({}))).not.toThrow();
  });

  it("policy validation reports an expression that does not compile, at its field", () => {
    const p = policy("p", { failurePolicy: "Fail", validations: [{ expression: "objekt.spec.type == 'NodePort'" }] });
    p.spec.matchConstraints = { ...serviceRules, matchPolicy: "Equivalent", namespaceSelector: {}, objectSelector: {} };
    const errs = validateValidatingAdmissionPolicy(p, compileAdmissionExpression);
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatchObject({ field: "spec.validations[0].expression", type: "Invalid" });
    expect(errs[0]?.detail).toMatch(/^compilation failed: ERROR: <input>:1:1: undeclared reference to 'objekt' \(in container ''\)/);
  });
});
