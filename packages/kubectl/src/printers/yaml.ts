/** kubectl's YAML printer (cli-runtime printers/yaml.go YAMLPrinter, on sigs.k8s.io/yaml). */
import { Document, Scalar, parse, visit } from "yaml";

/**
 * A string go-yaml v2 would resolve as a plain null, bool, number or
 * timestamp (or empty): it double-quotes those. Flow-looking text ("{}") is
 * not resolved by it and only needs single quotes.
 */
function ambiguous(s: string): boolean {
  if (s === "") return true;
  try {
    const v: unknown = parse(s, { version: "1.1" });
    return v === null || typeof v === "number" || typeof v === "boolean" || typeof v === "bigint" || v instanceof Date;
  } catch {
    return false;
  }
}

/**
 * sigs.k8s.io/yaml (go-yaml v2) style: YAML 1.1 resolution, double quotes
 * for strings that would resolve to another type, single quotes where plain
 * style is not possible, sequences not indented under their key.
 */
export function toKubectlYAML(value: unknown): string {
  const doc = new Document(value, { version: "1.1" });
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === "string" && ambiguous(node.value)) node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  return doc.toString({ singleQuote: true, indentSeq: false, lineWidth: 0 });
}
