/**
 * FlowSchema and PriorityLevelConfiguration validation (pkg/apis/flowcontrol/validation/validation.go),
 * upstream's messages and field paths, for flowcontrol/v1 requests.
 */
import { field, type FieldErrorList } from "../../errors/field-error.ts";
import { semanticEqual } from "../../meta/v1/validation/immutable.ts";
import { isDNS1123Label, isDNS1123Subdomain, nameIsDNSSubdomain } from "../../meta/v1/validation/name.ts";
import { validateObjectMeta } from "../../meta/v1/validation/object-meta.ts";
import { mandatoryFlowSchemas, mandatoryPriorityLevelConfigurations } from "./bootstrap.ts";
import { setDefaultsFlowSchema, setDefaultsPriorityLevelConfiguration } from "./defaults.ts";
import { requiredEntropyBits, maxHashBits } from "./shuffle-sharding.ts";
import {
  flowSchemaMaxMatchingPrecedence,
  flowSchemaNameExempt,
  priorityLevelConfigurationNameExempt,
  type FlowSchema,
  type FlowSchemaSpec,
  type LimitResponse,
  type NonResourcePolicyRule,
  type PolicyRulesWithSubjects,
  type PriorityLevelConfiguration,
  type PriorityLevelConfigurationSpec,
  type QueuingConfiguration,
  type ResourcePolicyRule,
  type Subject,
} from "./types.ts";

const supportedDistinguisherMethods = ["ByNamespace", "ByUser"];
const supportedVerbs = ["create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"];
const supportedSubjectKinds = ["Group", "ServiceAccount", "User"];
const supportedPriorityLevelEnablement = ["Exempt", "Limited"];
const supportedLimitResponseType = ["Queue", "Reject"];
const priorityLevelConfigurationQueuingMaxQueues = 10 * 1000 * 1000;
const nsErrIntro = "each member of this list must be '*' or a DNS-1123 label; ";

const hasWildcard = (xs: readonly string[] | undefined): boolean => (xs ?? []).includes("*");

/** The mandatory objects as stored: defaulted, so that a defaulted request body compares equal. */
function mandatorySpecs<T extends { metadata: { name?: string | undefined }; spec?: unknown }>(
  objs: T[],
  setDefaults: (o: T) => void,
): Map<string, unknown> {
  return new Map(
    objs.map((o) => {
      setDefaults(o);
      return [o.metadata.name ?? "", o.spec];
    }),
  );
}
const mandatoryFS = mandatorySpecs(mandatoryFlowSchemas(), setDefaultsFlowSchema);
const mandatoryPL = mandatorySpecs(mandatoryPriorityLevelConfigurations(), setDefaultsPriorityLevelConfiguration);

/** ValidateFlowSchema (ValidateFlowSchemaUpdate is the same). */
export function validateFlowSchema(fs: FlowSchema): FieldErrorList {
  const name = fs.metadata.name ?? "";
  const spec = fs.spec ?? { priorityLevelConfiguration: { name: "" } };
  const errs = [...validateObjectMeta(fs.metadata, { namespaced: false }), ...validateFlowSchemaSpec(name, spec, "spec")];
  const mand = mandatoryFS.get(name);
  if (mand !== undefined && !semanticEqual(spec, mand))
    errs.push(field.invalid("spec", spec, `spec of '${name}' must equal the fixed value`));
  return [...errs, ...validateConditions(fs.status?.conditions, "status")];
}

/** ValidateFlowSchemaSpec. */
export function validateFlowSchemaSpec(fsName: string, spec: FlowSchemaSpec, path: string): FieldErrorList {
  const errs: FieldErrorList = [];
  const mp = spec.matchingPrecedence ?? 0;
  if (mp <= 0) errs.push(field.invalid(`${path}.matchingPrecedence`, mp, "must be a positive value"));
  if (mp > flowSchemaMaxMatchingPrecedence)
    errs.push(field.invalid(`${path}.matchingPrecedence`, mp, `must not be greater than ${flowSchemaMaxMatchingPrecedence}`));
  if (mp === 1 && fsName !== flowSchemaNameExempt)
    errs.push(field.invalid(`${path}.matchingPrecedence`, mp, "only the schema named 'exempt' may have matchingPrecedence 1"));
  if (spec.distinguisherMethod && !supportedDistinguisherMethods.includes(spec.distinguisherMethod.type))
    errs.push(field.notSupported(`${path}.distinguisherMethod.type`, spec.distinguisherMethod, supportedDistinguisherMethods));
  const plName = spec.priorityLevelConfiguration.name;
  if (plName.length > 0)
    errs.push(...nameIsDNSSubdomain(plName, false).map((m) => field.invalid(`${path}.priorityLevelConfiguration.name`, plName, m)));
  else errs.push(field.required(`${path}.priorityLevelConfiguration.name`, "must reference a priority level"));
  (spec.rules ?? []).forEach((r, i) => errs.push(...validatePolicyRulesWithSubjects(r, `${path}.rules[${i}]`)));
  return errs;
}

function validatePolicyRulesWithSubjects(rule: PolicyRulesWithSubjects, path: string): FieldErrorList {
  const errs: FieldErrorList = [];
  if (rule.subjects.length > 0) rule.subjects.forEach((s, i) => errs.push(...validateSubject(s, `${path}.subjects[${i}]`)));
  else errs.push(field.required(`${path}.subjects`, "subjects must contain at least one value"));
  const rr = rule.resourceRules ?? [];
  const nr = rule.nonResourceRules ?? [];
  if (rr.length === 0 && nr.length === 0)
    errs.push(field.required(path, "at least one of resourceRules and nonResourceRules has to be non-empty"));
  rr.forEach((r, i) => errs.push(...validateResourcePolicyRule(r, `${path}.resourceRules[${i}]`)));
  nr.forEach((r, i) => errs.push(...validateNonResourcePolicyRule(r, `${path}.nonResourceRules[${i}]`)));
  return errs;
}

const forbidUser = (s: Subject, path: string): FieldErrorList =>
  s.user ? [field.forbidden(`${path}.user`, "user is forbidden when subject kind is not 'User'")] : [];
const forbidGroup = (s: Subject, path: string): FieldErrorList =>
  s.group ? [field.forbidden(`${path}.group`, "group is forbidden when subject kind is not 'Group'")] : [];
const forbidSA = (s: Subject, path: string): FieldErrorList =>
  s.serviceAccount
    ? [field.forbidden(`${path}.serviceAccount`, "serviceAccount is forbidden when subject kind is not 'ServiceAccount'")]
    : [];

/** ValidateFlowSchemaSubject. */
export function validateSubject(s: Subject, path: string): FieldErrorList {
  switch (s.kind) {
    case "ServiceAccount":
      return [
        ...validateServiceAccountSubject(s.serviceAccount, `${path}.serviceAccount`),
        ...forbidUser(s, path),
        ...forbidGroup(s, path),
      ];
    case "User":
      return [
        ...validateNamedSubject(s.user, `${path}.user`, "user is required when subject kind is 'User'"),
        ...forbidSA(s, path),
        ...forbidGroup(s, path),
      ];
    case "Group":
      return [
        ...validateNamedSubject(s.group, `${path}.group`, "group is required when subject kind is 'Group'"),
        ...forbidSA(s, path),
        ...forbidUser(s, path),
      ];
    default:
      return [field.notSupported(`${path}.kind`, s.kind, supportedSubjectKinds)];
  }
}

function validateServiceAccountSubject(sa: Subject["serviceAccount"], path: string): FieldErrorList {
  if (!sa) return [field.required(path, "serviceAccount is required when subject kind is 'ServiceAccount'")];
  const errs: FieldErrorList = [];
  if (sa.name.length === 0) errs.push(field.required(`${path}.name`));
  else if (sa.name !== "*") errs.push(...isDNS1123Subdomain(sa.name).map((m) => field.invalid(`${path}.name`, sa.name, m)));
  if (sa.namespace.length > 0) errs.push(...isDNS1123Label(sa.namespace).map((m) => field.invalid(`${path}.namespace`, sa.namespace, m)));
  else errs.push(field.required(`${path}.namespace`, "must specify namespace for service account"));
  return errs;
}

function validateNamedSubject(s: { name: string } | undefined, path: string, missing: string): FieldErrorList {
  if (!s) return [field.required(path, missing)];
  return s.name.length === 0 ? [field.required(`${path}.name`)] : [];
}

function validateVerbs(verbs: readonly string[], path: string): FieldErrorList {
  if (verbs.length === 0) return [field.required(path, "verbs must contain at least one value")];
  if (hasWildcard(verbs)) return verbs.length > 1 ? [field.invalid(path, verbs, "if '*' is present, must not specify other verbs")] : [];
  return verbs.every((v) => supportedVerbs.includes(v)) ? [] : [field.notSupported(path, verbs, supportedVerbs)];
}

/** ValidateFlowSchemaNonResourcePolicyRule. */
export function validateNonResourcePolicyRule(rule: NonResourcePolicyRule, path: string): FieldErrorList {
  const errs = validateVerbs(rule.verbs, `${path}.verbs`);
  const urls = rule.nonResourceURLs;
  if (urls.length === 0) errs.push(field.required(`${path}.nonResourceURLs`, "nonResourceURLs must contain at least one value"));
  else if (hasWildcard(urls)) {
    if (urls.length > 1)
      errs.push(field.invalid(`${path}.nonResourceURLs`, urls, "if '*' is present, must not specify other non-resource URLs"));
  } else
    urls.forEach((u, i) => {
      const detail = nonResourceURLPathError(u);
      if (detail !== undefined) errs.push(field.invalid(`${path}.nonResourceURLs[${i}]`, u, detail));
    });
  return errs;
}

/** ValidateFlowSchemaResourcePolicyRule. */
export function validateResourcePolicyRule(rule: ResourcePolicyRule, path: string): FieldErrorList {
  const errs = validateVerbs(rule.verbs, `${path}.verbs`);
  if (rule.apiGroups.length === 0) errs.push(field.required(`${path}.apiGroups`, "resource rules must supply at least one api group"));
  else if (rule.apiGroups.length > 1 && hasWildcard(rule.apiGroups))
    errs.push(field.invalid(`${path}.apiGroups`, rule.apiGroups, "if '*' is present, must not specify other api groups"));
  if (rule.resources.length === 0) errs.push(field.required(`${path}.resources`, "resource rules must supply at least one resource"));
  else if (rule.resources.length > 1 && hasWildcard(rule.resources))
    errs.push(field.invalid(`${path}.resources`, rule.resources, "if '*' is present, must not specify other resources"));
  const ns = rule.namespaces ?? [];
  if (ns.length === 0 && rule.clusterScope !== true)
    errs.push(field.required(`${path}.namespaces`, "resource rules that are not cluster scoped must supply at least one namespace"));
  else if (hasWildcard(ns)) {
    if (ns.length > 1) errs.push(field.invalid(`${path}.namespaces`, ns, "if '*' is present, must not specify other namespaces"));
  } else ns.forEach((n, i) => errs.push(...isDNS1123Label(n).map((m) => field.invalid(`${path}.namespaces[${i}]`, n, nsErrIntro + m))));
  return errs;
}

/** ValidateNonResourceURLPath: the detail of the path's error, or undefined. */
export function nonResourceURLPathError(p: string): string | undefined {
  if (p.length === 0) return "must not be empty";
  if (p === "/") return undefined;
  if (!p.startsWith("/")) return "must start with slash";
  if (p.includes(" ")) return "must not contain white-space";
  if (p.includes("//")) return "must not contain double slash";
  const wildcards = p.split("*").length - 1;
  if (wildcards > 1 || (wildcards === 1 && p.slice(-2) !== "/*")) return "wildcard can only do suffix matching";
  return undefined;
}

/** ValidateFlowSchemaStatus / ValidatePriorityLevelConfigurationStatus: condition types unique and set. */
export function validateConditions(conditions: readonly { type?: string | undefined }[] | undefined, path: string): FieldErrorList {
  const errs: FieldErrorList = [];
  const seen = new Set<string>();
  (conditions ?? []).forEach((c, i) => {
    const t = c.type ?? "";
    if (seen.has(t)) errs.push(field.duplicate(`${path}.conditions[${i}].type`, t));
    seen.add(t);
    if (t.length === 0) errs.push(field.required(`${path}.conditions[${i}].type`, "must not be empty"));
  });
  return errs;
}

/** ValidatePriorityLevelConfiguration (ValidatePriorityLevelConfigurationUpdate is the same). */
export function validatePriorityLevelConfiguration(pl: PriorityLevelConfiguration): FieldErrorList {
  const name = pl.metadata.name ?? "";
  const spec = pl.spec ?? { type: "" };
  const errs = [...validateObjectMeta(pl.metadata, { namespaced: false }), ...validatePriorityLevelConfigurationSpec(spec, name, "spec")];
  const mand = mandatoryPL.get(name);
  // The exempt level's `exempt` settings may be tuned; only catch-all is fixed in full.
  if (mand !== undefined && name !== priorityLevelConfigurationNameExempt && !semanticEqual(spec, mand))
    errs.push(field.invalid("spec", spec, `spec of '${name}' must equal the fixed value`));
  return [...errs, ...validateConditions(pl.status?.conditions, "status")];
}

/** ValidatePriorityLevelConfigurationSpec. */
export function validatePriorityLevelConfigurationSpec(spec: PriorityLevelConfigurationSpec, name: string, path: string): FieldErrorList {
  const errs: FieldErrorList = [];
  if ((name === priorityLevelConfigurationNameExempt) !== (spec.type === "Exempt"))
    errs.push(field.invalid(`${path}.type`, spec.type, "type must be 'Exempt' if and only if name is 'exempt'"));
  switch (spec.type) {
    case "Exempt":
      if (spec.limited) errs.push(field.forbidden(`${path}.limited`, "must be nil if the type is not Limited"));
      if (spec.exempt) errs.push(...validateSharesAndLendable(spec.exempt, `${path}.exempt`));
      break;
    case "Limited":
      if (spec.exempt) errs.push(field.forbidden(`${path}.exempt`, "must be nil if the type is Limited"));
      if (!spec.limited) errs.push(field.required(`${path}.limited`, "must not be empty when type is Limited"));
      else {
        errs.push(...validateSharesAndLendable(spec.limited, `${path}.limited`));
        errs.push(...validateLimitResponse(spec.limited.limitResponse ?? { type: "" }, `${path}.limited.limitResponse`));
        const b = spec.limited.borrowingLimitPercent;
        if (b !== undefined && b < 0)
          errs.push(field.invalid(`${path}.limited.borrowingLimitPercent`, b, "if specified, must be a non-negative integer"));
      }
      break;
    default:
      errs.push(field.notSupported(`${path}.type`, spec.type, supportedPriorityLevelEnablement));
  }
  return errs;
}

function validateSharesAndLendable(
  c: { nominalConcurrencyShares?: number | undefined; lendablePercent?: number | undefined },
  path: string,
): FieldErrorList {
  const errs: FieldErrorList = [];
  const shares = c.nominalConcurrencyShares ?? 0;
  if (shares < 0) errs.push(field.invalid(`${path}.nominalConcurrencyShares`, shares, "must be a non-negative integer"));
  const lp = c.lendablePercent;
  if (lp !== undefined && !(lp >= 0 && lp <= 100))
    errs.push(field.invalid(`${path}.lendablePercent`, lp, "must be between 0 and 100, inclusive"));
  return errs;
}

/** ValidateLimitResponse. */
export function validateLimitResponse(lr: LimitResponse, path: string): FieldErrorList {
  switch (lr.type) {
    case "Reject":
      return lr.queuing ? [field.forbidden(`${path}.queuing`, "must be nil if limited.limitResponse.type is not Limited")] : [];
    case "Queue":
      return lr.queuing
        ? validateQueuingConfiguration(lr.queuing, `${path}.queuing`)
        : [field.required(`${path}.queuing`, "must not be empty if limited.limitResponse.type is Limited")];
    default:
      return [field.notSupported(`${path}.type`, lr.type, supportedLimitResponseType)];
  }
}

/** ValidatePriorityLevelQueuingConfiguration. */
export function validateQueuingConfiguration(q: QueuingConfiguration, path: string): FieldErrorList {
  const errs: FieldErrorList = [];
  const { queues = 0, handSize = 0, queueLengthLimit = 0 } = q;
  if (queueLengthLimit <= 0) errs.push(field.invalid(`${path}.queueLengthLimit`, queueLengthLimit, "must be positive"));
  if (queues <= 0) errs.push(field.invalid(`${path}.queues`, queues, "must be positive"));
  else if (queues > priorityLevelConfigurationQueuingMaxQueues)
    errs.push(field.invalid(`${path}.queues`, queues, `must not be greater than ${priorityLevelConfigurationQueuingMaxQueues}`));
  if (handSize <= 0) errs.push(field.invalid(`${path}.handSize`, handSize, "must be positive"));
  else if (handSize > queues) errs.push(field.invalid(`${path}.handSize`, handSize, `should not be greater than queues (${queues})`));
  else if (requiredEntropyBits(queues, handSize) > maxHashBits)
    errs.push(
      field.invalid(
        `${path}.handSize`,
        handSize,
        `required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than ${maxHashBits}`,
      ),
    );
  return errs;
}
