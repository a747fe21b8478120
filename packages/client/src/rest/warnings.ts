/**
 * The texts of the RFC 7234 code-299 `Warning` headers of a response, in order
 * (client-go `rest/warnings.go` parseWarningHeaders: other codes are ignored).
 */
export function warningTexts(rawHeaders: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() !== "warning") continue;
    for (const m of rawHeaders[i + 1]!.matchAll(/(\d{3}) \S+ "((?:[^"\\]|\\.)*)"/g)) {
      if (m[1] === "299") out.push(m[2]!.replace(/\\(.)/g, "$1"));
    }
  }
  return out;
}
