/**
 * Finds duplicate object keys in JSON text (JSON.parse silently keeps the last one), reported
 * as kube-apiserver's strict decoder reports them: `duplicate field "spec.type"`.
 */

/** Paths of duplicated keys, in document order; [] for invalid JSON (JSON.parse reports that). */
export function duplicateFields(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  const ws = (): void => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const str = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: string, depth: number): void => {
    if (depth > 1000) throw new Error("too deep");
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const seen = new Set<string>();
      ws();
      while (i < text.length && text[i] !== "}") {
        ws();
        const key = str();
        const p = path === "" ? key : `${path}.${key}`;
        if (seen.has(key)) out.push(p);
        seen.add(key);
        ws();
        i++; // ':'
        value(p, depth + 1);
        ws();
        if (text[i] === ",") i++;
        ws();
      }
      i++;
    } else if (c === "[") {
      i++;
      let n = 0;
      ws();
      while (i < text.length && text[i] !== "]") {
        value(`${path}[${n++}]`, depth + 1);
        ws();
        if (text[i] === ",") i++;
        ws();
      }
      i++;
    } else if (c === '"') str();
    else while (i < text.length && !",}] \t\n\r".includes(text[i]!)) i++;
  };
  try {
    value("", 0);
  } catch {
    return [];
  }
  return out;
}
