/** Human and JSON renderings of `usage servicecidr`. */
import { TabWriter, getTabWriterOptions } from "@servicenet/printers/tabwriter";
import { percent, type RangeUsage } from "@servicenet/printers/usage";

function bandRange(b: RangeUsage["static"]): string {
  return b.first === null || b.last === null ? "(none)" : `${b.first}-${b.last}`;
}

function status(u: RangeUsage): string {
  if (u.deleting) return "Terminating";
  return u.ready === "True" ? "Ready" : u.ready === "Unknown" ? "Ready(no condition)" : "NotReady";
}

/**
 * renderUsage: a kubectl-style table (one row per ServiceCIDR and family),
 * then, per range, the addresses it holds and who holds them.
 */
export function renderUsage(usage: readonly RangeUsage[]): string {
  const tw = new TabWriter(getTabWriterOptions);
  tw.write("NAME\tFAMILY\tCIDR\tSTATUS\tSIZE\tALLOCATED\tFREE\tUSED\tSTATIC (USED/SIZE)\tDYNAMIC (USED/SIZE)\n");
  for (const u of usage) {
    tw.write(
      `${u.serviceCIDR}\t${u.family}\t${u.cidr}\t${status(u)}\t${u.size}\t${u.allocated}\t${u.free}\t${percent(u.allocated, u.size)}\t` +
        `${u.static.used}/${u.static.size}\t${u.dynamic.used}/${u.dynamic.size}\n`,
    );
  }
  tw.flush();
  let out = tw.output();
  for (const u of usage) {
    out += `\n${u.serviceCIDR} ${u.cidr}: static ${bandRange(u.static)}, dynamic ${bandRange(u.dynamic)}\n`;
    if (u.holders.length === 0 && u.withoutIPAddress.length === 0) {
      out += "  <none>\n";
      continue;
    }
    const t = new TabWriter(getTabWriterOptions);
    t.write("  IP\tBAND\tPARENTREF\tSERVICE\n");
    for (const h of u.holders) {
      t.write(`  ${h.ip}\t${h.band}\t${h.parent}\t${h.service ? `${h.service.namespace}/${h.service.name}` : "<missing>"}\n`);
    }
    for (const s of u.withoutIPAddress) t.write(`  ${s.ip}\t-\t<no IPAddress>\t${s.namespace}/${s.name}\n`);
    t.flush();
    out += t.output();
  }
  return out;
}

/** usageToJSON: the same data with BigInts as decimal strings (JSON has no 128-bit integers). */
export function usageToJSON(usage: readonly RangeUsage[]): string {
  const doc = {
    kind: "ServiceCIDRUsageList",
    items: usage.map((u) => ({
      ...u,
      size: u.size.toString(),
      allocated: u.allocated.toString(),
      free: u.free.toString(),
      static: { ...u.static, size: u.static.size.toString(), used: u.static.used.toString() },
      dynamic: { ...u.dynamic, size: u.dynamic.size.toString(), used: u.dynamic.used.toString() },
    })),
  };
  return JSON.stringify(doc, null, 4) + "\n";
}
