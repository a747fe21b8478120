/** Splits one iptables-save / iptables-restore rule line into words, as iptables-restore does (double quotes group). */

// A word: runs of quoted text and unquoted non-space characters. One regex scan: a 10,000-Service
// KUBE-SERVICES chain is split on the first trace, so per-character concatenation is too slow.
const wordPattern = /(?:"[^"]*"|[^\s"])+/g;

/**
 * The words of `line`; a double-quoted word loses its quotes.
 * @throws Error on an unterminated quote.
 */
export function splitWords(line: string): string[] {
  if ((line.split('"').length - 1) % 2 !== 0) throw new Error(`unterminated quote in ${JSON.stringify(line)}`);
  const words = line.match(wordPattern) ?? [];
  return words.map((w) => (w.includes('"') ? w.replaceAll('"', "") : w));
}
