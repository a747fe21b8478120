/**
 * pkg/registry/rbac/validation/rule.go ConfirmNoEscalation: a user may only write rules it holds
 * itself, in the namespace of the request (cluster-wide rules included).
 */
import type { PolicyRule } from "@servicenet/api";
import { compareGo } from "@servicenet/printers";
import type { UserInfo } from "../../../authentication/user/user.ts";
import type { AuthorizationRuleResolver } from "../../../authorization/authorizer/interfaces.ts";
import { covers } from "./policy-comparator.ts";
import { compactRules, compactString, goQuotedStrings } from "./policy-compact.ts";

/**
 * ConfirmNoEscalation: undefined when the user's rules in `namespace` ("" for cluster-scoped
 * requests) cover `rules`, otherwise upstream's message listing the missing rules (compacted,
 * sorted as Go sorts strings, one per line), with the resolver's errors appended when there were any.
 */
export async function confirmNoEscalation(
  user: UserInfo,
  namespace: string,
  ruleResolver: AuthorizationRuleResolver,
  rules: readonly PolicyRule[],
): Promise<string | undefined> {
  // Per the resolver's contract, errors leave an incomplete but usable list: carry on with it.
  const { rules: ownerRules, errors } = await ruleResolver.rulesFor(user, namespace);
  const { covered, uncovered } = covers(ownerRules, rules);
  if (covered) return undefined;
  const missing = [...new Set(compactRules(uncovered).map(compactString))].sort(compareGo);
  let msg = `user ${JSON.stringify(user.name)} (groups=${goQuotedStrings(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${missing.join("\n")}`;
  if (errors.length > 0) msg += `; resolution errors: [${errors.join(" ")}]`;
  return msg;
}
