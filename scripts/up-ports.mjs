// The ports of `npm start` (scripts/up.mjs). The apiserver's is `--port` (default 6443); kube-proxy's
// /metrics (and /healthz, served on the same listener) is kube-proxy's own `--metrics-bind-address`
// flag, and by default sits as far from upstream's 10249 as `--port` is from 6443, so that two
// `npm start`s with different `--port`s run side by side. `--port 0` makes it ephemeral too.
// The controller-manager serves no port.

export const defaultAPIServerPort = 6443;
export const upstreamMetricsPort = 10249;

/** Flags up.mjs takes for kube-proxy (upstream kube-proxy's names); the rest go to `servicenet up`. */
const proxyFlags = ["--metrics-bind-address"];

/** The value of the last `--name v` or `--name=v` in `args`, or undefined. */
function lastFlag(args, name) {
  let v;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === name && i + 1 < args.length) v = args[++i];
    else if (args[i].startsWith(`${name}=`)) v = args[i].slice(name.length + 1);
  }
  return v;
}

/**
 * Splits up.mjs's argv into `servicenet up`'s and kube-proxy's, deriving kube-proxy's metrics
 * address from `--port` unless given. Throws (a usage error) when the derived port is out of range.
 */
export function splitUpArgs(args) {
  const upArgs = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (proxyFlags.includes(a)) i++;
    else if (!proxyFlags.some((f) => a.startsWith(`${f}=`))) upArgs.push(a);
  }
  let metrics = lastFlag(args, "--metrics-bind-address");
  if (metrics === undefined) {
    const port = Number(lastFlag(upArgs, "--port") ?? defaultAPIServerPort);
    const derived = port === 0 ? 0 : upstreamMetricsPort + (port - defaultAPIServerPort);
    if (!Number.isInteger(derived) || derived < 0 || derived > 65535) {
      throw new Error(
        `kube-proxy's metrics port derived from --port ${port} (${derived}) is out of range: pass --metrics-bind-address HOST:PORT`,
      );
    }
    metrics = `127.0.0.1:${derived}`;
  }
  return { upArgs, proxyArgs: ["--metrics-bind-address", metrics] };
}
