/**
 * The text of one JSON value, found by path: Go's decode errors quote a bad number as the body
 * spelled it (`number 99999999999999999999`, `number 1e30`), which JSON.parse has rounded away.
 */

/** The literal at `path` (object keys and list indices) in the JSON `text`; undefined when not found. */
export function literalAt(text: string, path: readonly (string | number)[]): string | undefined {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const skipString = (): string => {
    const start = i++;
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return text.slice(start, i);
  };
  // Skips one value; returns its text for scalars.
  const skip = (): string => {
    ws();
    const c = text[i];
    if (c === '"') return skipString();
    if (c === "{" || c === "[") {
      let depth = 0;
      do {
        const d = text[i];
        if (d === '"') {
          skipString();
          continue;
        }
        if (d === "{" || d === "[") depth++;
        else if (d === "}" || d === "]") depth--;
        i++;
      } while (i < text.length && depth > 0);
      return "";
    }
    const start = i;
    while (i < text.length && !",}] \t\n\r".includes(text[i]!)) i++;
    return text.slice(start, i);
  };
  try {
    for (const step of path) {
      ws();
      if (typeof step === "number") {
        if (text[i] !== "[") return undefined;
        i++;
        for (let n = 0; n < step; n++) {
          skip();
          ws();
          if (text[i] !== ",") return undefined;
          i++;
        }
        continue;
      }
      if (text[i] !== "{") return undefined;
      i++;
      let found = false;
      while (!found) {
        ws();
        if (text[i] !== '"') return undefined;
        const key = JSON.parse(skipString()) as string;
        ws();
        i++; // ':'
        if (key === step) found = true;
        else {
          skip();
          ws();
          if (text[i] !== ",") return undefined;
          i++;
        }
      }
    }
    const lit = skip();
    return lit === "" ? undefined : lit;
  } catch {
    return undefined;
  }
}
