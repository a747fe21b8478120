/**
 * Label selectors with the full string grammar of k8s.io/apimachinery/pkg/labels:
 * `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`, `a>1`, `a<1`, joined by commas.
 * Parse errors are BadRequest with upstream's wording where kubectl users see it.
 */
import { StatusError } from "@servicenet/api";

export type LabelOperator = "=" | "!=" | "in" | "notin" | "exists" | "!" | "gt" | "lt";

export interface LabelRequirement {
  key: string;
  operator: LabelOperator;
  values: string[];
}

export type LabelSelector = readonly LabelRequirement[];

type Tok = { kind: "id" | "op" | "(" | ")" | ","; text: string };

const opChars = new Set(["=", "!", ">", "<"]);

function lex(s: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (c === " " || c === "\t") {
      i++;
    } else if (c === "(" || c === ")" || c === ",") {
      out.push({ kind: c, text: c });
      i++;
    } else if (opChars.has(c)) {
      let j = i + 1;
      while (j < s.length && s[j] === "=") j++;
      out.push({ kind: "op", text: s.slice(i, j) });
      i = j;
    } else {
      let j = i;
      while (j < s.length && !" \t(),".includes(s[j]!) && !opChars.has(s[j]!)) j++;
      out.push({ kind: "id", text: s.slice(i, j) });
      i = j;
    }
  }
  return out;
}

function bad(selector: string, detail: string): StatusError {
  return StatusError.badRequest(`unable to parse requirement: ${detail}`.replace("%s", selector));
}

const labelValueRe = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const labelKeyRe = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)$/;

function checkKey(sel: string, key: string): void {
  if (!labelKeyRe.test(key) || key.length > 317) {
    throw bad(
      sel,
      `<nil>: Invalid value: ${JSON.stringify(key)}: name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    );
  }
}

function checkValue(sel: string, v: string): void {
  if (v.length > 63 || !labelValueRe.test(v)) {
    throw bad(
      sel,
      `values[0][key]: Invalid value: ${JSON.stringify(v)}: a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    );
  }
}

/** Parses a label selector string; "" selects everything. */
export function parseLabelSelector(selector: string): LabelSelector {
  const toks = lex(selector);
  const reqs: LabelRequirement[] = [];
  let i = 0;
  const peek = (): Tok | undefined => toks[i];
  const expectValue = (): string => {
    const t = peek();
    if (t === undefined || t.kind !== "id") return "";
    i++;
    return t.text;
  };
  while (i < toks.length) {
    let t = toks[i]!;
    if (t.kind === "op" && t.text === "!") {
      i++;
      const k = toks[i];
      if (k?.kind !== "id") throw StatusError.badRequest(`unable to parse requirement: found '${k?.text ?? ""}', expected: identifier`);
      i++;
      checkKey(selector, k.text);
      reqs.push({ key: k.text, operator: "!", values: [] });
    } else if (t.kind === "id") {
      i++;
      checkKey(selector, t.text);
      const key = t.text;
      const next = peek();
      if (next === undefined || next.kind === ",") {
        reqs.push({ key, operator: "exists", values: [] });
      } else if (next.kind === "op") {
        i++;
        const op = next.text;
        if (op === "=" || op === "==" || op === "!=") {
          const v = expectValue();
          checkValue(selector, v);
          reqs.push({ key, operator: op === "!=" ? "!=" : "=", values: [v] });
        } else if (op === ">" || op === "<") {
          const v = expectValue();
          if (!/^-?\d+$/.test(v))
            throw StatusError.badRequest(`unable to parse requirement: for 'Gt', 'Lt' operators, the value must be an integer`);
          reqs.push({ key, operator: op === ">" ? "gt" : "lt", values: [v] });
        } else {
          throw StatusError.badRequest(`unable to parse requirement: found '${op}', expected: '=', '!=', '==', 'in', notin'`);
        }
      } else if (next.kind === "id" && (next.text === "in" || next.text === "notin")) {
        i++;
        if (peek()?.kind !== "(") throw StatusError.badRequest(`unable to parse requirement: found '${peek()?.text ?? ""}', expected: '('`);
        i++;
        const values: string[] = [];
        for (;;) {
          const cur = toks[i];
          if (cur === undefined) throw StatusError.badRequest("unable to parse requirement: found '', expected: ',', ')' or identifier");
          t = cur;
          if (t.kind === ")") {
            i++;
            break;
          }
          if (t.kind === ",") {
            i++;
            if (values.length === 0 || toks[i - 2]?.kind === ",") values.push("");
            continue;
          }
          if (t.kind !== "id")
            throw StatusError.badRequest(`unable to parse requirement: found '${t.text}', expected: ',', ')' or identifier`);
          checkValue(selector, t.text);
          values.push(t.text);
          i++;
        }
        reqs.push({ key, operator: next.text === "in" ? "in" : "notin", values });
      } else {
        throw StatusError.badRequest(`unable to parse requirement: found '${next.text}', expected: in, notin, =, ==, !=, gt, lt`);
      }
    } else {
      throw StatusError.badRequest(`unable to parse requirement: found '${t.text}', expected: !, identifier`);
    }
    const sep = peek();
    if (sep === undefined) break;
    if (sep.kind !== ",") throw StatusError.badRequest(`found '${sep.text}', expected: ',' or 'end of string'`);
    i++;
    if (i >= toks.length) throw StatusError.badRequest("found '', expected: !, identifier");
  }
  return reqs;
}

/** True when `labels` satisfy every requirement. */
export function matchesLabels(sel: LabelSelector, labels: Readonly<Record<string, string>> | undefined): boolean {
  const l = labels ?? {};
  return sel.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    const v = l[r.key];
    switch (r.operator) {
      case "=":
      case "in":
        return has && r.values.includes(v!);
      case "!=":
      case "notin":
        return !has || !r.values.includes(v!);
      case "exists":
        return has;
      case "!":
        return !has;
      case "gt":
      case "lt": {
        if (!has || !/^-?\d+$/.test(v!)) return false;
        const n = Number(v);
        const want = Number(r.values[0]);
        return r.operator === "gt" ? n > want : n < want;
      }
    }
  });
}
