/** ConfirmNoEscalation (pkg/registry/rbac/validation/rule.go) against a static rule resolver. */
import type { PolicyRule, RoleRef } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import type { UserInfo } from "../../../authentication/user/user.ts";
import type { AuthorizationRuleResolver } from "../../../authorization/authorizer/interfaces.ts";
import { confirmNoEscalation } from "./escalation.ts";

/** Rules per user and namespace ("" = cluster-wide, which applies everywhere). */
function staticResolver(rules: Record<string, Record<string, PolicyRule[]>>, errors: string[] = []): AuthorizationRuleResolver {
  return {
    rulesFor: async (user, namespace) => {
      const byNs = rules[user.name] ?? {};
      return { rules: [...(byNs[""] ?? []), ...(namespace !== "" ? (byNs[namespace] ?? []) : [])], errors };
    },
    getRoleReferenceRules: (_ref: RoleRef) => Promise.resolve([]),
  };
}

const alice: UserInfo = { name: "alice", uid: "", groups: ["dev", "system:authenticated"] };

describe("ConfirmNoEscalation", () => {
  const resolver = staticResolver({
    alice: {
      "": [{ verbs: ["get"], apiGroups: [""], resources: ["pods"] }],
      ns1: [{ verbs: ["*"], apiGroups: [""], resources: ["services"] }],
    },
  });

  it("allows rules the user holds, cluster-wide or in the namespace", async () => {
    expect(
      await confirmNoEscalation(alice, "ns1", resolver, [{ verbs: ["get"], apiGroups: [""], resources: ["pods", "services"] }]),
    ).toBeUndefined();
  });

  it("lists the missing rules compacted and sorted, one per line", async () => {
    const msg = await confirmNoEscalation(alice, "ns2", resolver, [
      { verbs: ["list", "get", "watch"], apiGroups: [""], resources: ["services", "pods"] },
      { verbs: ["get"], nonResourceURLs: ["/metrics"] },
    ]);
    expect(msg).toBe(
      'user "alice" (groups=["dev" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["list" "watch"]}\n' +
        '{APIGroups:[""], Resources:["services"], Verbs:["list" "get" "watch"]}\n' +
        '{NonResourceURLs:["/metrics"], Verbs:["get"]}',
    );
  });

  it("appends the resolver's errors", async () => {
    const r = staticResolver({}, ['clusterroles.rbac.authorization.k8s.io "gone" not found']);
    const msg = await confirmNoEscalation({ name: "bob", uid: "", groups: [] }, "", r, [
      { verbs: ["get"], apiGroups: [""], resources: ["pods"] },
    ]);
    expect(msg).toBe(
      'user "bob" (groups=[]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["get"]}; resolution errors: [clusterroles.rbac.authorization.k8s.io "gone" not found]',
    );
  });
});
