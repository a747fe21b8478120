/**
 * `describe KIND NAME`: fetches the object, the EndpointSlices of a Service
 * (label kubernetes.io/service-name) and its Events (fieldSelector on
 * involvedObject, as kubectl's describe.searchEvents does), then prints with
 * this package's describers.
 */
import type { EndpointSlice, Endpoints, Event, IPAddress, PartialObjectMetadata, Service, ServiceCIDR } from "@servicenet/api";
import { describeService } from "../describe/service.ts";
import { describeEndpointSlice, describeEndpoints } from "../describe/endpoints.ts";
import { describeIPAddress, describeServiceCIDR } from "../describe/networking.ts";
import type { DescribeOptions } from "../describe/common.ts";
import { CLIError } from "./errors.ts";
import { effectiveNamespace, type Context } from "./io.ts";
import { findResource, mustResource, resourcePath, type Resource } from "./resources.ts";

interface List<T> {
  items?: T[];
}

/**
 * Events about `obj`: kubectl 1.33 (client-go events.Search) selects on name,
 * namespace and kind of the involved object, and on its uid when it has one.
 */
async function searchEvents(ctx: Context, r: Resource, obj: PartialObjectMetadata): Promise<Event[] | undefined> {
  if (!ctx.args.showEvents) return undefined;
  const ns = obj.metadata?.namespace ?? "";
  const uid = obj.metadata?.uid ?? "";
  const fs = `involvedObject.name=${obj.metadata?.name ?? ""},involvedObject.namespace=${ns},involvedObject.kind=${r.kind}${uid === "" ? "" : `,involvedObject.uid=${uid}`}`;
  const events = mustResource("events");
  const path = `${resourcePath(events, r.namespaced ? ns : undefined)}?fieldSelector=${encodeURIComponent(fs)}`;
  try {
    return (await ctx.client.get<List<Event>>(path)).items ?? [];
  } catch {
    // describe prints no Events section when the search fails, rather than failing.
    return undefined;
  }
}

async function serviceSlices(ctx: Context, svc: Service): Promise<EndpointSlice[]> {
  const slices = mustResource("endpointslices");
  const sel = `kubernetes.io/service-name=${svc.metadata?.name ?? ""}`;
  const path = `${resourcePath(slices, svc.metadata?.namespace ?? "")}?labelSelector=${encodeURIComponent(sel)}`;
  return (await ctx.client.get<List<EndpointSlice>>(path)).items ?? [];
}

const describable = new Set(["services", "servicecidrs", "ipaddresses", "endpointslices", "endpoints"]);

/** Runs `describe`; returns the exit code. */
export async function runDescribe(ctx: Context): Promise<number> {
  const [kindArg, ...names] = ctx.args.positional;
  if (kindArg === undefined)
    throw new CLIError(`error: You must specify the type of resource to describe. Use "servicenet-kubectl describe --help" for usage.`);
  const r = findResource(kindArg);
  if (r === undefined || !describable.has(r.name)) throw new CLIError(`error: the server doesn't have a resource type "${kindArg}"`);
  if (names.length === 0) throw new CLIError(`error: describe ${kindArg} needs a NAME (listing every object is not supported)`);
  const opts: DescribeOptions = { now: ctx.now };
  const ns = r.namespaced ? effectiveNamespace(ctx) : undefined;
  const out: string[] = [];
  for (const name of names) {
    const obj = await ctx.client.get<PartialObjectMetadata>(resourcePath(r, ns, name));
    const events = await searchEvents(ctx, r, obj);
    out.push(await describeOne(ctx, r, obj, events, opts));
  }
  // kubectl separates several described objects with a blank line.
  ctx.io.stdout.write(out.join("\n\n"));
  return 0;
}

async function describeOne(
  ctx: Context,
  r: Resource,
  obj: PartialObjectMetadata,
  events: Event[] | undefined,
  opts: DescribeOptions,
): Promise<string> {
  switch (r.name) {
    case "services":
      return describeService(obj as Service, await serviceSlices(ctx, obj as Service), events, opts);
    case "servicecidrs":
      return describeServiceCIDR(obj as ServiceCIDR, events, opts);
    case "ipaddresses":
      return describeIPAddress(obj as IPAddress, events, opts);
    case "endpointslices":
      return describeEndpointSlice(obj as EndpointSlice, events, opts);
    default:
      return describeEndpoints(obj as Endpoints, events, opts);
  }
}
