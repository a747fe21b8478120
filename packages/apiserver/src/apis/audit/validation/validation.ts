/** ValidatePolicy (staging/src/k8s.io/apiserver/pkg/apis/audit/validation/validation.go). */
import { field, isDNS1123Subdomain, path, type FieldError } from "@servicenet/api";
import { auditLevels, auditStages, type Policy, type PolicyRule } from "../v1/types.ts";

/** Every rule's errors, with field paths under `rules[i]`. */
export function validatePolicy(policy: Policy): FieldError[] {
  return (policy.rules ?? []).flatMap((rule, i) => validatePolicyRule(rule, path("rules", i)));
}

function validatePolicyRule(rule: PolicyRule, at: string): FieldError[] {
  const errs = [
    ...validateLevel(rule.level ?? "", `${at}.level`),
    ...validateNonResourceURLs(rule.nonResourceURLs ?? [], `${at}.nonResourceURLs`),
    ...validateResources(rule, `${at}.resources`),
    ...validateOmitStages(rule.omitStages ?? [], `${at}.omitStages`),
  ];
  if ((rule.nonResourceURLs ?? []).length > 0 && ((rule.resources ?? []).length > 0 || (rule.namespaces ?? []).length > 0))
    errs.push(
      field.invalid(`${at}.nonResourceURLs`, rule.nonResourceURLs, "rules cannot apply to both regular resources and non-resource URLs"),
    );
  return errs;
}

function validateLevel(level: string, at: string): FieldError[] {
  if (level === "") return [field.required(at)];
  return (auditLevels as readonly string[]).includes(level) ? [] : [field.notSupported(at, level, auditLevels)];
}

function validateNonResourceURLs(urls: readonly string[], at: string): FieldError[] {
  const errs: FieldError[] = [];
  urls.forEach((url, i) => {
    if (url === "*") return;
    if (!url.startsWith("/")) errs.push(field.invalid(path(at, i), url, "non-resource URL rules must begin with a '/' character"));
    if (url !== "" && url.slice(0, -1).includes("*"))
      errs.push(field.invalid(path(at, i), url, "non-resource URL wildcards '*' must be the final character of the rule"));
  });
  return errs;
}

function validateResources(rule: PolicyRule, at: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const gr of rule.resources ?? []) {
    // The empty group is the core group; others must be DNS subdomains (no "group/version").
    const group = gr.group ?? "";
    if (group !== "") {
      const msgs = isDNS1123Subdomain(group);
      if (msgs.length > 0) errs.push(field.invalid(`${at}.group`, group, msgs.join(",")));
    }
    if ((gr.resourceNames ?? []).length > 0 && (gr.resources ?? []).length === 0)
      errs.push(field.invalid(`${at}.resourceNames`, gr.resourceNames, "using resourceNames requires at least one resource"));
  }
  return errs;
}

function validateOmitStages(stages: readonly string[], at: string): FieldError[] {
  return stages.flatMap((s, i) =>
    (auditStages as readonly string[]).includes(s) ? [] : [field.invalid(path(at, i), s, `allowed stages are ${auditStages.join(",")}`)],
  );
}
