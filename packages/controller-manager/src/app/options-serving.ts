/**
 * The serving flags of kube-controller-manager (`cmd/kube-controller-manager/app/options`:
 * `SecureServingOptions`, `DelegatingAuthenticationOptions`, `DelegatingAuthorizationOptions`):
 * where `/healthz` and `/metrics` listen and who may read them.
 */
import { isIP } from "node:net";
import { UsageError } from "@servicenet/component-base/cli";

export interface ServingOptions {
  /** --secure-port (default 10257; 0 serves nothing). */
  securePort: number;
  /** --bind-address (default 0.0.0.0, every interface). */
  bindAddress: string;
  /** --tls-cert-file / --tls-private-key-file; without them a self-signed certificate is made in memory. */
  tlsCertFile: string;
  tlsPrivateKeyFile: string;
  /** --authentication-kubeconfig / --authorization-kubeconfig; empty: the --kubeconfig. */
  authenticationKubeconfig: string;
  authorizationKubeconfig: string;
  /** --authorization-always-allow-paths (default /healthz,/readyz,/livez). */
  alwaysAllowPaths: string[];
}

export const defaultServingOptions = (): ServingOptions => ({
  securePort: 10257,
  bindAddress: "0.0.0.0",
  tlsCertFile: "",
  tlsPrivateKeyFile: "",
  authenticationKubeconfig: "",
  authorizationKubeconfig: "",
  alwaysAllowPaths: ["/healthz", "/readyz", "/livez"],
});

export const servingUsage = `  --secure-port N                   port of /healthz and /metrics over HTTPS (default 10257; 0 turns it off)
  --bind-address IP                 address to serve on (default 0.0.0.0)
  --tls-cert-file PATH              serving certificate (default: a self-signed one, made at start)
  --tls-private-key-file PATH       its key
  --authentication-kubeconfig PATH  where tokens are reviewed (TokenReview; default --kubeconfig)
  --authorization-kubeconfig PATH   where requests are authorized (SubjectAccessReview; default --kubeconfig)
  --authorization-always-allow-paths LIST
                                    paths served without authorization (default /healthz,/readyz,/livez)`;

/** Applies one serving flag; false when `flag` is not one. Throws a UsageError on a bad value. */
export function parseServingFlag(o: ServingOptions, flag: string, value: () => string): boolean {
  switch (flag) {
    case "--secure-port": {
      const v = value();
      const n = Number(v);
      if (!/^[0-9]+$/.test(v))
        throw new UsageError(
          `invalid argument ${JSON.stringify(v)} for "${flag}" flag: strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`,
        );
      // SecureServingOptions.Validate with Required false.
      if (n > 65535) throw new UsageError(`--secure-port ${n} must be between 0 and 65535, inclusive. 0 for turning off secure port`);
      o.securePort = n;
      return true;
    }
    case "--bind-address": {
      const v = value();
      if (isIP(v) === 0)
        throw new UsageError(`invalid argument ${JSON.stringify(v)} for "${flag}" flag: failed to parse IP: ${JSON.stringify(v)}`);
      o.bindAddress = v;
      return true;
    }
    case "--tls-cert-file":
      o.tlsCertFile = value();
      return true;
    case "--tls-private-key-file":
      o.tlsPrivateKeyFile = value();
      return true;
    case "--authentication-kubeconfig":
      o.authenticationKubeconfig = value();
      return true;
    case "--authorization-kubeconfig":
      o.authorizationKubeconfig = value();
      return true;
    case "--authorization-always-allow-paths":
      o.alwaysAllowPaths = value()
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "");
      return true;
    default:
      return false;
  }
}

/** A certificate without its key (or the reverse) is refused, as upstream's serving options. */
export function validateServingOptions(o: ServingOptions): void {
  if ((o.tlsCertFile === "") !== (o.tlsPrivateKeyFile === ""))
    throw new UsageError("--tls-cert-file and --tls-private-key-file must both be given");
}
