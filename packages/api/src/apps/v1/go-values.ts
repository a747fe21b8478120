/**
 * Go's `%#v` of the apps values validation reports (field.ErrorBody prints structs, maps and
 * intstr.IntOrString that way, since their String methods have pointer receivers).
 */
import { GoValue } from "../../errors/index.ts";
import type { LabelSelector } from "../../meta/v1/label-selector.ts";
import type { IntOrString } from "../../core/v1/service.ts";
import type { DeploymentStrategy } from "./types.ts";

const q = (s: string | undefined): string => JSON.stringify(s ?? "");

/** `%#v` of a map[string]string: sorted keys, `map[string]string(nil)` for a nil map. */
export function goStringMap(m: Readonly<Record<string, string>> | undefined): string {
  if (m === undefined) return "map[string]string(nil)";
  const entries = Object.keys(m)
    .sort()
    .map((k) => `${q(k)}:${q(m[k])}`);
  return `map[string]string{${entries.join(", ")}}`;
}

function goStrings(values: readonly string[] | undefined): string {
  return values === undefined ? "[]string(nil)" : `[]string{${values.map(q).join(", ")}}`;
}

/** `%#v` of a metav1.LabelSelector. */
export function goLabelSelector(s: LabelSelector): GoValue {
  const exprs =
    s.matchExpressions === undefined
      ? "[]v1.LabelSelectorRequirement(nil)"
      : `[]v1.LabelSelectorRequirement{${s.matchExpressions
          .map((e) => `v1.LabelSelectorRequirement{Key:${q(e.key)}, Operator:${q(e.operator)}, Values:${goStrings(e.values)}}`)
          .join(", ")}}`;
  return new GoValue(`v1.LabelSelector{MatchLabels:${goStringMap(s.matchLabels)}, MatchExpressions:${exprs}}`);
}

/** `%#v` of an intstr.IntOrString (Type 0 int, 1 string); undefined is the zero value. */
export function goIntOrString(v: IntOrString | undefined): GoValue {
  if (typeof v === "string") return new GoValue(`intstr.IntOrString{Type:1, IntVal:0, StrVal:${q(v)}}`);
  return new GoValue(`intstr.IntOrString{Type:0, IntVal:${v ?? 0}, StrVal:""}`);
}

/** `%#v` of an apps.DeploymentStrategy with no rollingUpdate (a set pointer prints an address). */
export function goDeploymentStrategy(s: DeploymentStrategy): GoValue {
  const ru = s.rollingUpdate === undefined ? "(*apps.RollingUpdateDeployment)(nil)" : "(*apps.RollingUpdateDeployment)(0xc000000000)";
  return new GoValue(`apps.DeploymentStrategy{Type:${q(s.type)}, RollingUpdate:${ru}}`);
}
