/**
 * Serving certificates generated on first start: a self-signed CA and a serving certificate for
 * 127.0.0.1, ::1 and localhost, signed by it. node:crypto can make keys but not X.509
 * certificates, so this shells out to the `openssl` CLI (OpenSSL 1.1.1+ or 3.x); both files are
 * reused on later starts, so kubeconfigs stay valid.
 */
import { execFileSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface TLSFiles {
  caCert: string;
  cert: string;
  key: string;
}

function openssl(args: string[], cwd: string): void {
  try {
    execFileSync("openssl", args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
  } catch (e) {
    const err = e as { code?: string; stderr?: Buffer };
    if (err.code === "ENOENT") throw new Error("the openssl CLI is needed to generate the serving certificate on first start (install openssl, or pass --tls-cert-file/--tls-private-key-file)");
    throw new Error(`openssl ${args[0]} failed: ${err.stderr?.toString() ?? String(e)}`);
  }
}

/** Loads `dir`/{ca.crt,serving.crt,serving.key}, generating them when absent. */
export function ensureServingCerts(dir: string, hosts: readonly string[] = ["127.0.0.1", "::1", "localhost"]): TLSFiles {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const p = (f: string): string => join(dir, f);
  if (!existsSync(p("ca.crt")) || !existsSync(p("serving.crt")) || !existsSync(p("serving.key"))) {
    const san = hosts.map((h) => (/^[\d.]+$/.test(h) || h.includes(":") ? `IP:${h}` : `DNS:${h}`)).join(",");
    writeFileSync(p("serving.ext"), `subjectAltName=${san}\nbasicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n`);
    // Keys come from node:crypto (PKCS#8, readable by every TLS stack); only the certificates need openssl.
    for (const f of ["ca.key", "serving.key"]) {
      const { privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
      writeFileSync(p(f), privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
    }
    openssl(["req", "-x509", "-new", "-key", "ca.key", "-sha256", "-days", "3650", "-subj", "/CN=servicenet-ca", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign,digitalSignature", "-out", "ca.crt"], dir);
    openssl(["req", "-new", "-key", "serving.key", "-subj", "/CN=servicenet-apiserver", "-out", "serving.csr"], dir);
    openssl(["x509", "-req", "-in", "serving.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-days", "3650", "-sha256", "-extfile", "serving.ext", "-out", "serving.crt"], dir);
  }
  return { caCert: readFileSync(p("ca.crt"), "utf8"), cert: readFileSync(p("serving.crt"), "utf8"), key: readFileSync(p("serving.key"), "utf8") };
}
