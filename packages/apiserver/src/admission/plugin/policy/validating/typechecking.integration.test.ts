/**
 * The policies' type-checking status over HTTP, after upstream's test/e2e/apimachinery/
 * validatingadmissionpolicy.go "should type check validation expressions": the status controller
 * checks each policy against the schemas the server serves (built-in kinds and custom resources)
 * and writes `status.typeChecking` with the generation it checked.
 */
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../../server/testing.ts";

const json = { "Content-Type": "application/json" };
const policies = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies";

interface Status {
  observedGeneration?: number;
  typeChecking?: { expressionWarnings?: { fieldRef: string; warning: string }[] };
  conditions?: unknown[];
}

const policy = (name: string, group: string, resource: string, validation: Record<string, string>, version = "v1") => ({
  metadata: { name },
  spec: {
    matchConstraints: {
      resourceRules: [{ apiGroups: [group], apiVersions: [version], operations: ["CREATE", "UPDATE"], resources: [resource] }],
    },
    validations: [validation],
  },
});

describe("ValidatingAdmissionPolicy type checking", () => {
  let s: TestServer;
  const send = async (method: string, path: string, body?: unknown) => {
    const r = await s.request(path, { method, headers: json, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    return { status: r.status, body: r.json() as { metadata: { generation?: number }; status?: Status } };
  };
  /** Waits for a status with typeChecking set for the policy's current generation (upstream: non-nil TypeChecking). */
  const checked = async (name: string): Promise<Status> => {
    let status: Status | undefined;
    await eventually(
      async () => {
        const r = await send("GET", `${policies}/${name}`);
        status = r.body.status;
        return status?.typeChecking !== undefined && status.observedGeneration === r.body.metadata.generation;
      },
      { what: `policy ${name} to be type-checked` },
    );
    return status!;
  };

  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("should type check validation expressions", async () => {
    const correct = policy("correct-policy.example.com", "apps", "deployments", { expression: "object.spec.replicas > 1" });
    expect((await send("POST", policies, correct)).status).toBe(201);
    const ok = await checked("correct-policy.example.com");
    expect(ok).toEqual({ observedGeneration: 1, typeChecking: {} });

    const confused = policy("confused-policy.example.com", "apps", "deployments", {
      expression: "object.spec.replicas > '1'",
      messageExpression: "'wants replicas > 1, got ' + object.spec.replicas",
    });
    expect((await send("POST", policies, confused)).status).toBe(201);
    const warnings = (await checked("confused-policy.example.com")).typeChecking?.expressionWarnings ?? [];
    expect(warnings).toHaveLength(2);
    expect(warnings[0]!.fieldRef).toBe("spec.validations[0].expression");
    expect(warnings[0]!.warning).toBe(
      "apps/v1, Kind=Deployment: ERROR: <input>:1:22: found no matching overload for '_>_' applied to '(int, string)'\n" +
        " | object.spec.replicas > '1'\n | .....................^\n",
    );
    expect(warnings[1]!.fieldRef).toBe("spec.validations[0].messageExpression");
    expect(warnings[1]!.warning).toContain("found no matching overload for '_+_' applied to '(string, int)'");
  });

  it("checks again when the spec changes, and against a custom resource's schema", async () => {
    const crd = {
      metadata: { name: "reproducers.example.com" },
      spec: {
        group: "example.com",
        names: { plural: "reproducers", singular: "reproducer", kind: "Reproducer", listKind: "ReproducerList" },
        scope: "Namespaced",
        versions: [
          {
            name: "v1alpha1",
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: { text: { type: "string" } } } } },
            },
          },
        ],
      },
    };
    expect((await send("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd)).status).toBe(201);
    await eventually(async () => (await s.request("/apis/example.com/v1alpha1/reproducers")).status === 200, {
      what: "reproducers served",
    });
    const p = policy("reproducer.example.com", "example.com", "reproducers", { expression: "has(object.spec.text)" }, "v1alpha1");
    expect((await send("POST", policies, p)).status).toBe(201);
    expect((await checked("reproducer.example.com")).typeChecking).toEqual({});

    const current = (await send("GET", `${policies}/reproducer.example.com`)).body as unknown as ReturnType<typeof policy>;
    current.spec.validations = [{ expression: "object.spec.nope == 'x'" }];
    expect((await send("PUT", `${policies}/reproducer.example.com`, current)).status).toBe(200);
    const status = await checked("reproducer.example.com");
    expect(status.observedGeneration).toBe(2);
    expect(status.typeChecking?.expressionWarnings).toEqual([
      {
        fieldRef: "spec.validations[0].expression",
        warning:
          "example.com/v1alpha1, Kind=Reproducer: ERROR: <input>:1:12: undefined field 'nope'\n | object.spec.nope == 'x'\n | ...........^\n",
      },
    ]);
  });
});
