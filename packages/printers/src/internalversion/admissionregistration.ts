/**
 * The ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding and webhook configuration tables
 * (printers.go printValidatingAdmissionPolicy, printValidatingAdmissionPolicyBinding,
 * printMutatingWebhook, printValidatingWebhook).
 */
import type { LabelSelector } from "@servicenet/api";
import type {
  MutatingWebhookConfiguration,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
  ValidatingWebhookConfiguration,
} from "@servicenet/api/admissionregistration/v1";
import { ageColumn, column, nameColumn, type TableHandler } from "../tablegenerator.ts";
import { translateTimestampSince } from "./time.ts";

/** NAME VALIDATIONS PARAMKIND AGE. */
export const validatingAdmissionPolicyHandler: TableHandler<ValidatingAdmissionPolicy> = {
  columnDefinitions: [
    nameColumn(),
    column("Validations", "Validations indicates the number of validation rules defined in this configuration", { type: "integer" }),
    column("ParamKind", "ParamKind specifies the kind of resources used to parameterize this policy"),
    ageColumn(),
  ],
  printRow: (p, { now }) => {
    const kind = p.spec?.paramKind;
    return [
      p.metadata?.name ?? "",
      p.spec?.validations?.length ?? 0,
      kind ? `${kind.apiVersion ?? ""}/${kind.kind ?? ""}` : "<unset>",
      translateTimestampSince(p.metadata?.creationTimestamp, now),
    ];
  },
};

/** NAME WEBHOOKS AGE, the same columns for both webhook configuration kinds. */
function webhookConfigurationHandler<T extends ValidatingWebhookConfiguration | MutatingWebhookConfiguration>(): TableHandler<T> {
  return {
    columnDefinitions: [
      nameColumn(),
      column("Webhooks", "Webhooks indicates the number of webhooks registered in this configuration", { type: "integer" }),
      ageColumn(),
    ],
    printRow: (c, { now }) => [
      c.metadata?.name ?? "",
      c.webhooks?.length ?? 0,
      translateTimestampSince(c.metadata?.creationTimestamp, now),
    ],
  };
}

export const validatingWebhookConfigurationHandler = webhookConfigurationHandler<ValidatingWebhookConfiguration>();
export const mutatingWebhookConfigurationHandler = webhookConfigurationHandler<MutatingWebhookConfiguration>();

/** NAME POLICYNAME PARAMREF AGE. */
export const validatingAdmissionPolicyBindingHandler: TableHandler<ValidatingAdmissionPolicyBinding> = {
  columnDefinitions: [
    nameColumn(),
    column("PolicyName", "PolicyName indicates the policy definition which the policy binding binded to"),
    column("ParamRef", "ParamRef indicates the param resource which sets the configration param"),
    ageColumn(),
  ],
  printRow: (b, { now }) => [
    b.metadata?.name ?? "",
    b.spec?.policyName ?? "",
    paramRefCell(b.spec?.paramRef),
    translateTimestampSince(b.metadata?.creationTimestamp, now),
  ],
};

function paramRefCell(ref: NonNullable<ValidatingAdmissionPolicyBinding["spec"]>["paramRef"]): string {
  if (ref === undefined) return "<unset>";
  const name = ref.name ?? "";
  // Whether the param kind is cluster-scoped is not known here: a name without namespace gets "*".
  if (name !== "") return ref.namespace ? `${ref.namespace}/${name}` : `*/${name}`;
  return ref.selector !== undefined ? goLabelSelectorString(ref.selector) : "<unset>";
}

/**
 * The generated `(*metav1.LabelSelector).String()` (generated.pb.go) upstream's printer calls:
 * `&LabelSelector{MatchLabels:map[string]string{k: v,},MatchExpressions:[]LabelSelectorRequirement{...},}`.
 */
export function goLabelSelectorString(s: LabelSelector): string {
  const labels = Object.keys(s.matchLabels ?? {})
    .sort()
    .map((k) => `${k}: ${s.matchLabels?.[k] ?? ""},`)
    .join("");
  const exprs = (s.matchExpressions ?? [])
    .map((e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(" ")}],},`)
    .join("");
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}
