/**
 * One object through its describer (kubectl/pkg/describe): for a Service its EndpointSlices
 * (label kubernetes.io/service-name), and for every kind the Events found the way client-go's
 * events.Search finds them.
 */
import type {
  ClusterRole,
  ClusterRoleBinding,
  EndpointSlice,
  Endpoints,
  Event,
  IPAddress,
  Ingress,
  IngressClass,
  NetworkPolicy,
  PartialObjectMetadata,
  Role,
  RoleBinding,
  Service,
  ServiceCIDR,
} from "@servicenet/api";
import { describeService } from "../describe/service.ts";
import { describeEndpointSlice, describeEndpoints } from "../describe/endpoints.ts";
import { describeIPAddress, describeServiceCIDR } from "../describe/networking.ts";
import { describePodDisruptionBudget } from "../describe/policy.ts";
import type { PodDisruptionBudget } from "@servicenet/api/policy/v1";
import {
  describeIngress,
  describeIngressClass,
  describeNetworkPolicy,
  ingressBackendServices,
  type BackendService,
} from "../describe/ingress.ts";
import { APIError } from "./errors.ts";
import { describeClusterRole, describeClusterRoleBinding, describeRole, describeRoleBinding } from "../describe/rbac.ts";
import type { DescribeOptions } from "../describe/common.ts";
import { goLocalLocation, type Location } from "../util/zoneinfo.ts";
import type { Context } from "./io.ts";
import { mustResource, resourcePath, type Resource } from "./resources.ts";

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

/**
 * What describeBackendV1 reads for each Service an Ingress names: its EndpointSlices, then the
 * Service; the first failure's message (client-go's error text) instead.
 */
async function ingressServices(ctx: Context, ing: Ingress): Promise<Map<string, BackendService>> {
  const ns = ing.metadata?.namespace ?? "";
  const out = new Map<string, BackendService>();
  for (const name of ingressBackendServices(ing)) {
    try {
      const slices = await serviceSlices(ctx, { metadata: { name, namespace: ns } } as Service);
      const service = await ctx.client.get<Service>(`${resourcePath(mustResource("services"), ns)}/${encodeURIComponent(name)}`);
      out.set(name, { service, slices });
    } catch (e) {
      out.set(name, { error: e instanceof APIError && e.status?.message !== undefined ? e.status.message : String(e) });
    }
  }
  return out;
}

const locations = new Map<string | undefined, Location>();

/** time.Local for this invocation's $TZ, loaded once per value. */
function localLocation(env: Record<string, string | undefined>): Location {
  const tz = env["TZ"];
  let loc = locations.get(tz);
  if (loc === undefined) {
    loc = goLocalLocation(env);
    locations.set(tz, loc);
  }
  return loc;
}

/** The describe text of `obj` (a `r` object), with its events unless --show-events=false. */
export async function describeObject(ctx: Context, r: Resource, obj: PartialObjectMetadata): Promise<string> {
  // The RBAC describers print no events and search for none.
  switch (r.name) {
    case "roles":
      return describeRole(obj as Role);
    case "clusterroles":
      return describeClusterRole(obj as ClusterRole);
    case "rolebindings":
      return describeRoleBinding(obj as RoleBinding);
    case "clusterrolebindings":
      return describeClusterRoleBinding(obj as ClusterRoleBinding);
  }
  const location = localLocation(ctx.io.env);
  // describeNetworkPolicy searches for no events.
  if (r.name === "networkpolicies") return describeNetworkPolicy(obj as NetworkPolicy, { location });
  const events = await searchEvents(ctx, r, obj);
  // time.Local as the kubectl process would load it: from this invocation's $TZ.
  const opts: DescribeOptions = { now: ctx.now, location };
  switch (r.name) {
    case "services":
      return describeService(obj as Service, await serviceSlices(ctx, obj as Service), events, opts);
    case "servicecidrs":
      return describeServiceCIDR(obj as ServiceCIDR, events, opts);
    case "ipaddresses":
      return describeIPAddress(obj as IPAddress, events, opts);
    case "endpointslices":
      return describeEndpointSlice(obj as EndpointSlice, events, opts);
    case "poddisruptionbudgets":
      return describePodDisruptionBudget(obj as unknown as PodDisruptionBudget, events, opts);
    case "ingresses":
      return describeIngress(obj as Ingress, await ingressServices(ctx, obj as Ingress), events, opts);
    case "ingressclasses":
      return describeIngressClass(obj as IngressClass, events, opts);
    default:
      return describeEndpoints(obj as Endpoints, events, opts);
  }
}
