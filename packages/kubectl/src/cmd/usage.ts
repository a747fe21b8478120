/**
 * `usage servicecidr [NAME]`: lists ServiceCIDRs, IPAddresses and Services
 * (all namespaces) and prints how full each range is (a servicenet view, not
 * in upstream kubectl).
 */
import type { IPAddress, Service, ServiceCIDR } from "@servicenet/api";
import { serviceCIDRUsage } from "../usage/servicecidr-usage.ts";
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
  if (output !== "" && output !== "json") throw new CLIError(`error: usage supports -o json only, not "${output}"`);
  const [cidrs, ips, services] = await Promise.all([
    list<ServiceCIDR>(ctx, "servicecidrs"),
    list<IPAddress>(ctx, "ipaddresses"),
    list<Service>(ctx, "services"),
  ]);
  if (name !== undefined && !cidrs.some((c) => c.metadata?.name === name)) {
    throw new CLIError(`Error from server (NotFound): servicecidrs.networking.k8s.io "${name}" not found`);
  }
  const usage = serviceCIDRUsage(cidrs, ips, services, name);
  ctx.io.stdout.write(output === "json" ? usageToJSON(usage) : renderUsage(usage));
  return 0;
}
