/** Splits one iptables-save / iptables-restore rule line into words, as iptables-restore does (double quotes group). */

/**
 * The words of `line`; a double-quoted word loses its quotes.
 * @throws Error on an unterminated quote.
 */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let i = 0;
  const n = line.length;
  while (i < n) {
    while (i < n && line[i] === " ") i++;
    if (i >= n) break;
    let word = "";
    while (i < n && line[i] !== " ") {
      if (line[i] === '"') {
        const end = line.indexOf('"', i + 1);
        if (end < 0) throw new Error(`unterminated quote in ${JSON.stringify(line)}`);
        word += line.slice(i + 1, end);
        i = end + 1;
      } else {
        word += line[i];
        i++;
      }
    }
    words.push(word);
  }
  return words;
}
