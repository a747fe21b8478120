/** Parsing of iptables-restore text for tests (upstream's assertIPTablesRulesEqual with sort=true). */

export interface ParsedTable {
  /** `:CHAIN - [0:0]` lines, sorted. */
  readonly chains: string[];
  /** Rules per chain, in written order; `-X` lines under "-X". */
  readonly rules: Record<string, string[]>;
}

/** Splits restore input into tables; rule order is kept per chain, chain order is not significant. */
export function parseRestore(text: string): Record<string, ParsedTable> {
  const out: Record<string, ParsedTable> = {};
  let table: ParsedTable | undefined;
  for (const line of text.split("\n")) {
    if (line.startsWith("*")) {
      table = { chains: [], rules: {} };
      out[line.slice(1)] = table;
    } else if (table === undefined || line === "" || line === "COMMIT") {
      continue;
    } else if (line.startsWith(":")) {
      table.chains.push(line);
    } else {
      const chain = line.startsWith("-X ") ? "-X" : (line.split(" ")[1] ?? "");
      (table.rules[chain] ??= []).push(line);
    }
  }
  for (const t of Object.values(out)) t.chains.sort();
  return out;
}

/** The chain names declared in one table of restore input. */
export function declaredChains(text: string, table: string): string[] {
  return (parseRestore(text)[table]?.chains ?? []).map((l) => l.slice(1, l.indexOf(" ")));
}
