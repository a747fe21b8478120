// The ports of `npm start` (scripts/up.mjs). The apiserver's is `--port` (default 6443); kube-proxy's
// /metrics is its own `--metrics-bind-address` flag and its /healthz + /livez its
// `--healthz-bind-address`, each by default as far from upstream's 10249 / 10256 as `--port` is from
// 6443 (and on loopback), so that two `npm start`s with different `--port`s run side by side.
// `--port 0` makes them ephemeral too. The controller-manager's /healthz and /metrics (HTTPS,
// kube-controller-manager's --secure-port, upstream 10257) are derived the same way, on loopback; with
// `--port 0` up.mjs picks a free port for it (its --secure-port 0 would turn them off). `-v N` goes to all.

export const defaultAPIServerPort = 6443;
export const upstreamMetricsPort = 10249;
export const upstreamHealthzPort = 10256;
export const upstreamControllerManagerPort = 10257;

/** Flags up.mjs takes for kube-proxy (upstream kube-proxy's names); the rest go to `servicenet up`. */
const proxyFlags = ["--metrics-bind-address", "--healthz-bind-address"];
/** klog's verbosity flag, for every component. */
const verbosityFlags = ["-v", "--v"];

/** The value of the last `--name v` or `--name=v` in `args`, or undefined. */
function lastFlag(args, name) {
  let v;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === name && i + 1 < args.length) v = args[++i];
    else if (args[i].startsWith(`${name}=`)) v = args[i].slice(name.length + 1);
  }
  return v;
}

/** The port `upstream` + (port - 6443) for the apiserver `port`; throws a usage error when out of range. */
function derivedPort(port, upstream, flag) {
  const derived = port === 0 ? 0 : upstream + (port - defaultAPIServerPort);
  if (!Number.isInteger(derived) || derived < 0 || derived > 65535) {
    if (flag === "--secure-port")
      throw new Error(`the controller-manager's --secure-port derived from --port ${port} (${derived}) is out of range`);
    throw new Error(`kube-proxy's ${flag} port derived from --port ${port} (${derived}) is out of range: pass ${flag} HOST:PORT`);
  }
  return derived;
}

/**
 * Splits up.mjs's argv into `servicenet up`'s, kube-proxy's and the controller-manager's, deriving
 * kube-proxy's metrics and healthz addresses from `--port` unless given. Throws (a usage error)
 * when a derived port is out of range.
 */
export function splitUpArgs(args) {
  const upArgs = [];
  const verbosity = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (proxyFlags.includes(a)) i++;
    else if (proxyFlags.some((f) => a.startsWith(`${f}=`))) continue;
    else if (verbosityFlags.includes(a) && i + 1 < args.length) verbosity.splice(0, 2, "-v", args[++i]);
    else if (verbosityFlags.some((f) => a.startsWith(`${f}=`))) verbosity.splice(0, 2, "-v", a.slice(a.indexOf("=") + 1));
    else upArgs.push(a);
  }
  const port = Number(lastFlag(upArgs, "--port") ?? defaultAPIServerPort);
  const metrics =
    lastFlag(args, "--metrics-bind-address") ?? `127.0.0.1:${derivedPort(port, upstreamMetricsPort, "--metrics-bind-address")}`;
  const healthz =
    lastFlag(args, "--healthz-bind-address") ?? `127.0.0.1:${derivedPort(port, upstreamHealthzPort, "--healthz-bind-address")}`;
  return {
    upArgs: [...upArgs, ...verbosity],
    proxyArgs: ["--metrics-bind-address", metrics, "--healthz-bind-address", healthz, ...verbosity],
    controllerManagerArgs: verbosity,
    /** The controller-manager's --secure-port; 0: up.mjs picks a free one. */
    controllerManagerPort: derivedPort(port, upstreamControllerManagerPort, "--secure-port"),
  };
}
