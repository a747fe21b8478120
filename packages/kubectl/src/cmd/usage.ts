/**
 * `usage servicecidr [NAME]`: lists ServiceCIDRs, IPAddresses and Services
 * (all namespaces) and prints how full each range is (a servicenet view, not
 * in upstream kubectl).
 */
import type { IPAddress, Service, ServiceCIDR } from "@servicenet/api";
import { renderUsageHTML, serviceCIDRUsage } from "@servicenet/printers/usage";
import { renderUsage, usageToJSON } from "../usage/render.ts";
import { CLIError } from "./errors.ts";
import type { Context } from "./io.ts";
import { findResource, mustResource, resourcePath } from "./resources.ts";

async function list<T>(ctx: Context, name: string): Promise<T[]> {
  return (await ctx.client.get<{ items?: T[] }>(resourcePath(mustResource(name), undefined))).items ?? [];
}

/** Runs `usage`; returns the exit code. */
export async function runUsage(ctx: Context): Promise<number> {
  const [kindArg, name, ...extra] = ctx.args.positional;
  if (kindArg === undefined || findResource(kindArg)?.name !== "servicecidrs") {
    throw new CLIError(`error: usage supports only "servicecidr"${kindArg === undefined ? "" : `, not "${kindArg}"`}`);
  }
  if (extra.length > 0) throw new CLIError("error: usage servicecidr takes at most one NAME");
  const output = ctx.args.output ?? "";
  if (output !== "" && output !== "json" && output !== "html")
    throw new CLIError(`error: usage supports -o json and -o html only, not "${output}"`);
  const [cidrs, ips, services] = await Promise.all([
    list<ServiceCIDR>(ctx, "servicecidrs"),
    list<IPAddress>(ctx, "ipaddresses"),
    list<Service>(ctx, "services"),
  ]);
  if (name !== undefined && !cidrs.some((c) => c.metadata?.name === name)) {
    throw new CLIError(`Error from server (NotFound): servicecidrs.networking.k8s.io "${name}" not found`);
  }
  const usage = serviceCIDRUsage(cidrs, ips, services, name);
  // html: one self-contained page (`-o html > usage.html`); a client cannot read the bitmaps, the page says so.
  const text =
    output === "json"
      ? usageToJSON(usage)
      : output === "html"
        ? renderUsageHTML(usage, { source: "servicenet-kubectl usage" })
        : renderUsage(usage);
  ctx.io.stdout.write(text);
  return 0;
}
