/**
 * Reading `--audit-policy-file` (staging/src/k8s.io/apiserver/pkg/audit/policy/reader.go
 * LoadPolicyFromFile, LoadPolicyFromBytes): YAML or JSON of an audit.k8s.io/v1 Policy, validated,
 * with at least one rule. Errors read as kube-apiserver's start-up errors.
 */
import { readFileSync } from "node:fs";
import { aggregateMessage } from "@servicenet/api";
import { parse as parseYAML } from "yaml";
import { policySchema, type Policy } from "../../apis/audit/v1/types.ts";
import { validatePolicy } from "../../apis/audit/validation/validation.ts";

/** The group version a policy file must name. */
export const auditGroupVersion = "audit.k8s.io/v1";

/** LoadPolicyFromFile: the policy of `filePath`, or an Error in upstream's words. */
export function loadPolicyFromFile(filePath: string): Policy {
  if (filePath === "") throw new Error("file path not specified");
  let text: string;
  try {
    text = readFileSync(filePath, "utf8");
  } catch (e) {
    throw new Error(`failed to read file path "${filePath}": ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    return loadPolicyFromBytes(text);
  } catch (e) {
    throw new Error(`${e instanceof Error ? e.message : String(e)}: from file ${filePath}`);
  }
}

/** LoadPolicyFromBytes: decodes, checks apiVersion and kind, validates, and refuses a policy with no rules. */
export function loadPolicyFromBytes(text: string): Policy {
  let raw: unknown;
  try {
    raw = parseYAML(text);
  } catch (e) {
    throw new Error(`failed decoding: ${e instanceof Error ? e.message : String(e)}`);
  }
  const obj = (raw ?? {}) as { apiVersion?: unknown; kind?: unknown };
  if (typeof obj.kind !== "string" || obj.kind === "") throw new Error(`failed decoding: Object 'Kind' is missing in '${text.trim()}'`);
  const apiVersion = typeof obj.apiVersion === "string" ? obj.apiVersion : "";
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/", 2) : ["", apiVersion];
  if (apiVersion !== auditGroupVersion || obj.kind !== "Policy")
    throw new Error(`unknown group version field ${group}/${version}, Kind=${obj.kind} in policy`);
  const parsed = policySchema.safeParse(raw);
  if (!parsed.success)
    throw new Error(`failed decoding: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  const errs = validatePolicy(parsed.data);
  if (errs.length > 0) throw new Error(aggregateMessage(errs));
  if ((parsed.data.rules ?? []).length === 0) throw new Error("loaded illegal policy with 0 rules");
  return parsed.data;
}
