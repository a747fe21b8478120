/**
 * The sysctls kube-proxy itself sets (upstream `proxyutil.EnsureSysctl` over
 * `utilsysctl`). They are per network namespace: /proc/sys/net shows the
 * namespace of the process that reads it.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Needed for NodePorts on 127.0.0.1: DNATed packets keep their loopback source. */
export const sysctlRouteLocalnet = "net/ipv4/conf/all/route_localnet";

/** Where sysctls live; tests pass a temporary directory. */
export const defaultSysctlRoot = "/proc/sys";

/** Reads an integer sysctl; undefined when it cannot be read. */
export async function getSysctl(name: string, root = defaultSysctlRoot): Promise<number | undefined> {
  try {
    const v = Number.parseInt((await readFile(join(root, name), "utf8")).trim(), 10);
    return Number.isNaN(v) ? undefined : v;
  } catch {
    return undefined;
  }
}

/**
 * Sets `name` to `value` unless it already has that value, as upstream's
 * EnsureSysctl. Returns the value before, or throws "can't set sysctl ...".
 */
export async function ensureSysctl(name: string, value: number, root = defaultSysctlRoot): Promise<number | undefined> {
  const old = await getSysctl(name, root);
  if (old === value) return old;
  try {
    await writeFile(join(root, name), `${value}\n`);
  } catch (err) {
    throw new Error(`can't set sysctl ${name} to ${value}: ${(err as Error).message}`);
  }
  return old;
}

/** upstream's message when it turns route_localnet on for localhost NodePorts. */
export const routeLocalnetMessage =
  "Setting route_localnet=1 to allow node-ports on localhost; to change this either disable iptables.localhostNodePorts (--iptables-localhost-nodeports) or set nodePortAddresses (--nodeport-addresses) to filter loopback addresses";
