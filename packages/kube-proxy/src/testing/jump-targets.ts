/**
 * Chains a rule set jumps to without declaring them: iptables-restore and nft
 * refuse such input, so a full sync must return none.
 */

/** Targets iptables provides itself (built-in chains and target extensions). */
const iptablesBuiltins = new Set([
  "ACCEPT",
  "DROP",
  "REJECT",
  "RETURN",
  "MASQUERADE",
  "DNAT",
  "SNAT",
  "MARK",
  "INPUT",
  "OUTPUT",
  "FORWARD",
  "PREROUTING",
  "POSTROUTING",
]);

/** `-j`/`-g` targets of `-A` rules that are neither built in nor declared in the same table. */
export function undeclaredIptablesTargets(restoreText: string): string[] {
  const out: string[] = [];
  let declared = new Set<string>();
  const rules: string[] = [];
  const flush = () => {
    for (const rule of rules) {
      const m = /\s-[jg] (\S+)/.exec(rule);
      const target = m?.[1];
      if (target !== undefined && !iptablesBuiltins.has(target) && !declared.has(target)) out.push(target);
    }
    rules.length = 0;
  };
  for (const line of restoreText.split("\n")) {
    if (line.startsWith("*")) {
      flush();
      declared = new Set();
    } else if (line.startsWith(":")) {
      declared.add(line.slice(1, line.indexOf(" ")));
    } else if (line.startsWith("-A ")) {
      rules.push(line);
    }
  }
  flush();
  return out;
}

/** `goto`/`jump` targets in an nft transaction that no `add chain` of it declares. */
export function undeclaredNftTargets(transaction: string): string[] {
  const declared = new Set<string>();
  for (const m of transaction.matchAll(/^add chain \S+ \S+ (\S+)/gm)) declared.add(m[1] ?? "");
  const out: string[] = [];
  for (const m of transaction.matchAll(/\b(?:goto|jump) ([^\s;,}]+)/g)) {
    const target = m[1] ?? "";
    if (!declared.has(target)) out.push(target);
  }
  return out;
}
