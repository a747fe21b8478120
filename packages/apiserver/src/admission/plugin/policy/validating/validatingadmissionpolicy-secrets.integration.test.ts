/**
 * Upstream's tests that judge or read Secrets (test/integration/apiserver/cel/validatingadmissionpolicy_test.go):
 * TestMultiplePolicyBindings (three bindings of one policy, each selecting Secrets by a label and
 * judging them with its own ConfigMap params), Test_ValidatingAdmissionPolicy_UpdateParamKind (the
 * policy's paramKind switched from ConfigMap to Secret) and _MatchWithExcludeResources.
 */
import { describe, expect, it } from "vitest";
import {
  arv1,
  configParamKind,
  makeBinding,
  makeConfigParams,
  makePolicy,
  useVapHarness,
  VapHarness,
  withBindingExistsLabels,
  withExcludePolicyMatch,
  withFailurePolicy,
  withNamespaceMatch,
  withParams,
  withPolicyExistsLabels,
  withPolicyMatch,
  withValidations,
  withWaitReadyConstraintAndExpression,
} from "./validatingadmissionpolicy-testing.ts";

let h: VapHarness;
useVapHarness((x) => (h = x));

const secrets = "/api/v1/namespaces/default/secrets";
const secret = (name: string, labels: Record<string, string>) => ({ metadata: { name, labels } });

describe("TestMultiplePolicyBindings", () => {
  it("each binding selects its Secrets by label and judges them with its own params", async () => {
    const expression =
      "params.data.autofail != 'true' && (params.data.conditional == 'false' || object.metadata.name.startsWith(params.data.check))";
    let policy = withPolicyExistsLabels(
      ["paramIdent"],
      withParams(configParamKind(), withPolicyMatch("secrets", withFailurePolicy("Fail", makePolicy("test-policy")))),
    );
    policy = withWaitReadyConstraintAndExpression(withValidations([{ expression }], policy));
    await h.createPolicy(policy);

    const bindings: [string, Record<string, string>][] = [
      ["autofail", { autofail: "true" }],
      ["autopass", { autofail: "false", conditional: "false" }],
      ["condpass", { autofail: "false", conditional: "true", check: "prefix-" }],
    ];
    for (const [name, data] of bindings) {
      await h.createConfigMap(makeConfigParams(`${name}-params`, data));
      const label = `${name}-binding-label`;
      const binding = withBindingExistsLabels([label], policy, makeBinding(`${name}-binding`, "test-policy", `${name}-params`));
      await h.createAndWaitReady(binding, { paramIdent: "true", [label]: "true" });
    }

    const denied = async (name: string, binding: string) => {
      const r = await h.post(secrets, secret(name, { paramIdent: "someVal", [`${binding}-label`]: "true" }));
      expect(r.status).toBe(422);
      expect(r.body.reason).toBe("Invalid");
      // checkForFailedRule: a failed expression, not an evaluation error.
      expect(r.body.message).toBe(
        `secrets "${name}" is forbidden: ValidatingAdmissionPolicy 'test-policy' with binding '${binding}' denied request: failed expression: ${expression}`,
      );
    };
    await denied("autofailing-secret", "autofail-binding");
    await h.mustCreate(secrets, secret("autopassing-secret", { paramIdent: "someVal", "autopass-binding-label": "true" }));
    await h.mustCreate(secrets, secret("prefix-condpassing-secret", { paramIdent: "someVal", "condpass-binding-label": "true" }));
    await denied("condfailing-secret", "condpass-binding");
  });
});

describe("Test_ValidatingAdmissionPolicy_UpdateParamKind", () => {
  it("judges with the kind the policy's paramKind names now", async () => {
    await h.createConfigMap({ metadata: { name: "allowed-prefixes" } });
    await h.mustCreate(secrets, { metadata: { name: "allowed-prefixes" } });
    const policy = withValidations(
      [{ expression: "object.metadata.name.startsWith(params.kind.lowerAscii())", message: "wrong paramKind" }],
      withParams(configParamKind(), withNamespaceMatch(withFailurePolicy("Fail", makePolicy("allowed-prefixes")))),
    );
    await h.createPolicy(withWaitReadyConstraintAndExpression(policy));
    await h.createAndWaitReady(makeBinding("allowed-prefixes-binding", "allowed-prefixes", "allowed-prefixes"));

    expect((await h.createNamespace("configmap-")).status).toBe(201);
    const refused = await h.createNamespace("secret-");
    expect(refused.status).toBe(422);
    expect(refused.body.reason).toBe("Invalid");
    expect(refused.body.message).toContain("wrong paramKind");

    const p = await h.send(
      "PATCH",
      `${arv1}/validatingadmissionpolicies/allowed-prefixes`,
      { spec: { paramKind: { apiVersion: "v1", kind: "Secret" } } },
      "application/merge-patch+json",
    );
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    await h.until(async () => {
      const r = await h.createNamespace("configmap-");
      const message = r.body.message ?? "";
      if (r.status === 201 || message.includes("not yet synced to use for admission")) return false;
      expect(message).toContain("wrong paramKind");
      return true;
    }, "configmap-* to be refused");
    const allowed = await h.createNamespace("secret-");
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(201);
  });
});

describe("Test_ValidatingAdmissionPolicy_MatchWithExcludeResources", () => {
  it("a policy over all of core/v1 but ConfigMaps refuses Secrets and admits ConfigMaps", async () => {
    const policy = withExcludePolicyMatch(
      "configmaps",
      withPolicyMatch(
        "*",
        withValidations(
          [{ expression: "false", message: "not matched by exclude resources!" }],
          withFailurePolicy("Fail", makePolicy("match-by-resource-names")),
        ),
      ),
    );
    await h.createPolicy(policy);
    await h.mustCreate(
      `${arv1}/validatingadmissionpolicybindings`,
      makeBinding("match-by-resource-names-binding", "match-by-resource-names", ""),
    );
    await h.until(async () => {
      const r = await h.post(secrets, { metadata: { generateName: "not-matched-by-exclude-resources" } });
      if (r.status === 201) return false;
      expect(r.body.message).toContain("not matched by exclude resources!");
      return true;
    }, "Secrets to be refused");
    await h.createConfigMap({ metadata: { name: "matched-by-exclude-resources" } });
  });
});
