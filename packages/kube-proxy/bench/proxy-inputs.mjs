// The inputs of the proxier benchmarks (bench-proxy.mjs, hints.mjs): N dual-stack ClusterIP Services
// with one EndpointSlice of E endpoints per family, the same in every process that builds them.
/** `--name value` of the command line as a number, or `dflt`. */
export const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : Number(process.argv[i + 1]);
};
export const N = arg("services", 10000);
export const E = arg("endpoints", 10);
export const zones = ["zone-a", "zone-b", "zone-c"];

const hex = (n) => n.toString(16);
/** Service `svc-i`: one TCP port, a ClusterIP of each family. */
export function service(i) {
  const hi = 1 + (i >> 8),
    lo = i & 255;
  return {
    metadata: { namespace: "scale", name: `svc-${i}` },
    spec: {
      type: "ClusterIP",
      clusterIP: `10.96.${hi}.${lo}`,
      clusterIPs: [`10.96.${hi}.${lo}`, `fd00:10:96::${hex(hi)}:${hex(lo)}`],
      ipFamilies: ["IPv4", "IPv6"],
      ports: [{ name: "http", port: 80, protocol: "TCP", targetPort: 8080 }],
    },
  };
}
/** The `family` slice of `svc-i`: E ready endpoints on node-0…node-(E-1); `shift` moves their addresses. */
export function slice(i, family, shift = 0) {
  return sliceOf(i, family, shift, (address, j) => ({
    addresses: [address],
    nodeName: `node-${j}`,
    conditions: { ready: true, serving: true, terminating: false },
  }));
}
/**
 * `slice(i)` with each endpoint in, and hinted for, one of three zones. Written as a literal, as
 * `slice` is: endpoints copied with spread get slower object shapes than the informer's decoded JSON
 * gives, and reading them (not the hints) then cost the hinted sync 2.5 times the plain conversion.
 */
export function hintedSlice(i, family) {
  return sliceOf(i, family, 0, (address, j) => ({
    addresses: [address],
    nodeName: `node-${j}`,
    zone: zones[j % 3],
    conditions: { ready: true, serving: true, terminating: false },
    hints: { forZones: [{ name: zones[j % 3] }] },
  }));
}
function sliceOf(i, family, shift, endpoint) {
  const hi = 1 + (i >> 8),
    lo = i & 255;
  const endpoints = Array.from({ length: E }, (_, j) =>
    endpoint(family === "IPv4" ? `10.${100 + j + shift}.${hi}.${lo}` : `fd00:10:${hex(100 + j + shift)}::${hex(hi)}:${hex(lo)}`, j),
  );
  return {
    metadata: {
      namespace: "scale",
      name: `svc-${i}-${family === "IPv4" ? "v4" : "v6"}`,
      labels: { "kubernetes.io/service-name": `svc-${i}` },
    },
    addressType: family,
    endpoints,
    ports: [{ name: "http", port: 8080, protocol: "TCP" }],
  };
}

/** A proxier of `Cls` for node-0 in `family`, configured as the committed figures were taken. */
export function newProxier(Cls, family) {
  return new Cls({
    ipFamily: family,
    nodeName: "node-0",
    clusterCIDR: family === "IPv4" ? "10.64.0.0/10" : "fd00:10::/32",
    nodeIPs: [family === "IPv4" ? "192.168.0.2" : "2001:db8::2"],
    // nftables' default --nodeport-addresses (primary): the node IP fills @nodeport-ips, as before the flag existed.
    nodePortAddresses: [family === "IPv4" ? "192.168.0.2/32" : "2001:db8::2/128"],
    interfaceAddrs: () => [family === "IPv4" ? "192.168.0.2" : "2001:db8::2"],
    serviceCIDRs: [family === "IPv4" ? "10.96.0.0/12" : "fd00:10:96::/108"],
  });
}
