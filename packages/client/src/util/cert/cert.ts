/**
 * An in-memory self-signed serving certificate, as client-go's `util/cert/cert.go`
 * (`GenerateSelfSignedCertKeyWithFixtures` without fixtures): a CA `<host>-ca@<unix time>` and a
 * serving certificate `<host>@<unix time>` signed by it, valid one year, for `host` and the
 * alternate IPs and names. node:crypto makes the keys; only the certificates need the `openssl`
 * CLI, run in a private temporary directory that is removed at once.
 */
import { execFileSync } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { isIP } from "node:net";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface CertKey {
  /** The serving certificate followed by its CA (the chain served). */
  cert: string;
  key: string;
}

/**
 * Runs the `openssl` CLI in `cwd`; `missing` is the error when it is not installed (what to do
 * instead). Shared by every component that issues certificates.
 */
export function openssl(
  args: readonly string[],
  cwd: string,
  missing = "the openssl CLI is needed to generate a self-signed serving certificate",
): void {
  try {
    execFileSync("openssl", args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
  } catch (e) {
    const err = e as { code?: string; stderr?: Buffer };
    if (err.code === "ENOENT") throw new Error(missing);
    throw new Error(`openssl ${args[0]} failed: ${err.stderr?.toString() ?? String(e)}`);
  }
}

function newKey(path: string): void {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  writeFileSync(path, privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
}

/** upstream `GenerateSelfSignedCertKey(host, alternateIPs, alternateDNS)`. */
export function generateSelfSignedCertKey(
  host: string,
  alternateIPs: readonly string[] = [],
  alternateDNS: readonly string[] = [],
): CertKey {
  const now = Math.floor(Date.now() / 1000);
  const ips = isIP(host) !== 0 ? [host, ...alternateIPs] : alternateIPs;
  const names = isIP(host) !== 0 ? alternateDNS : [host, ...alternateDNS];
  const san = [...names.map((n) => `DNS:${n}`), ...ips.map((ip) => `IP:${ip}`)].join(",");
  const dir = mkdtempSync(join(tmpdir(), "selfsigned-"));
  try {
    newKey(join(dir, "ca.key"));
    newKey(join(dir, "serving.key"));
    writeFileSync(
      join(dir, "serving.ext"),
      `${san === "" ? "" : `subjectAltName=${san}\n`}basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n`,
    );
    const ca = ["req", "-x509", "-new", "-key", "ca.key", "-sha256", "-days", "365", "-subj", `/CN=${host}-ca@${now}`];
    openssl(
      [
        ...ca,
        "-addext",
        "basicConstraints=critical,CA:TRUE",
        "-addext",
        "keyUsage=critical,keyCertSign,digitalSignature,keyEncipherment",
        "-out",
        "ca.crt",
      ],
      dir,
    );
    openssl(["req", "-new", "-key", "serving.key", "-subj", `/CN=${host}@${now}`, "-out", "serving.csr"], dir);
    const serial = `0x${randomBytes(16).toString("hex")}`;
    const sign = [
      "x509",
      "-req",
      "-in",
      "serving.csr",
      "-CA",
      "ca.crt",
      "-CAkey",
      "ca.key",
      "-set_serial",
      serial,
      "-days",
      "365",
      "-sha256",
    ];
    openssl([...sign, "-extfile", "serving.ext", "-out", "serving.crt"], dir);
    const read = (f: string) => readFileSync(join(dir, f), "utf8");
    return { cert: read("serving.crt") + read("ca.crt"), key: read("serving.key") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
