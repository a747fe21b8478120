/**
 * Serving certificates generated on first start: a self-signed CA and a serving certificate signed
 * by it, with upstream's names (see {@link servingCertHosts}). node:crypto can make keys but not
 * X.509 certificates, so this shells out to the `openssl` CLI (OpenSSL 1.1.1+ or 3.x). Both are
 * reused on later starts, so kubeconfigs stay valid; a serving certificate that lacks one of the
 * wanted names (one made by an older version) is re-issued by the same CA.
 */
import { X509Certificate, createPrivateKey, generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { addressAt, formatIP, parseCIDRSloppy, parseIPSloppy } from "@servicenet/api";
import { openssl as runOpenssl } from "@servicenet/client/util/cert";
export interface TLSFiles {
  caCert: string;
  cert: string;
  key: string;
}

const opensslMissing =
  "the openssl CLI is needed to generate the serving certificate on first start (install openssl, or pass --tls-cert-file/--tls-private-key-file)";
const openssl = (args: string[], cwd: string): void => runOpenssl(args, cwd, opensslMissing);

/**
 * The serving certificate's names, as kube-apiserver's self-signed default
 * (`cmd/kube-apiserver/app/options/completion.go` calling `MaybeDefaultWithSelfSignedCerts` with
 * the `kubernetes` Service's names and IP, plus the bind address): `kubernetes`,
 * `kubernetes.default`, `kubernetes.default.svc`, `kubernetes.default.svc.cluster.local`,
 * `localhost`, 127.0.0.1 and ::1, the bind address when it is not a wildcard, and the first IP of
 * each Service range (upstream's `ServiceIPRange`, the `kubernetes` Service's ClusterIP), so that
 * clients that reach the apiserver through that Service verify it.
 */
export function servingCertHosts(o: { bindAddress?: string; serviceClusterIPRange?: string } = {}): string[] {
  const hosts = [
    "kubernetes",
    "kubernetes.default",
    "kubernetes.default.svc",
    "kubernetes.default.svc.cluster.local",
    "localhost",
    "127.0.0.1",
    "::1",
  ];
  const bind = o.bindAddress !== undefined ? parseIPSloppy(o.bindAddress) : null;
  if (bind && bind.value !== 0n) hosts.push(formatIP(bind));
  for (const r of (o.serviceClusterIPRange ?? "").split(",")) {
    const cidr = r.trim() === "" ? null : parseCIDRSloppy(r.trim());
    if (cidr) hosts.push(formatIP(addressAt(cidr, 1n)));
  }
  return [...new Set(hosts)];
}

/** The DNS names and IPs a PEM certificate names (none when it cannot be read). */
function certHosts(pem: string): string[] {
  let san: string | undefined;
  try {
    san = new X509Certificate(pem).subjectAltName;
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const entry of (san ?? "").split(", ")) {
    if (entry.startsWith("DNS:")) out.push(entry.slice(4));
    const ip = entry.startsWith("IP Address:") ? parseIPSloppy(entry.slice(11)) : null;
    if (ip) out.push(formatIP(ip));
  }
  return out;
}

/**
 * Loads `dir`/{ca.crt,serving.crt,serving.key}: the CA is made once; the serving certificate is
 * (re-)issued when absent or when it lacks one of `hosts`, keeping the names it had (so a
 * directory shared by servers with different Service ranges settles on one certificate).
 */
export function ensureServingCerts(dir: string, hosts: readonly string[] = servingCertHosts()): TLSFiles {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const p = (f: string): string => join(dir, f);
  hosts = hosts.map((h) => {
    const ip = parseIPSloppy(h);
    return ip ? formatIP(ip) : h;
  });
  if (!existsSync(p("ca.crt")) || !existsSync(p("ca.key"))) issue(dir, hosts, true);
  else if (!existsSync(p("serving.crt")) || !existsSync(p("serving.key"))) issue(dir, hosts, false);
  else {
    const have = certHosts(readFileSync(p("serving.crt"), "utf8"));
    const missing = hosts.filter((h) => !have.includes(h));
    if (missing.length > 0) issue(dir, [...have, ...missing], false);
  }
  return readPair(dir);
}

/**
 * Reads the files; a key and certificate that do not match were read between another process's
 * two renames, so they are read again.
 */
function readPair(dir: string): TLSFiles {
  for (let attempt = 0; ; attempt++) {
    const files = {
      caCert: readFileSync(join(dir, "ca.crt"), "utf8"),
      cert: readFileSync(join(dir, "serving.crt"), "utf8"),
      key: readFileSync(join(dir, "serving.key"), "utf8"),
    };
    if (attempt >= 10 || new X509Certificate(files.cert).checkPrivateKey(createPrivateKey(files.key))) return files;
  }
}

/**
 * Makes the files in a private temporary directory and renames them into place, key before
 * certificate, so that another process starting on the same directory reads whole files.
 */
function issue(dir: string, hosts: readonly string[], withCA: boolean): void {
  // openssl runs in `tmp`, so the CA's path must not be relative.
  dir = resolve(dir);
  const tmp = mkdtempSync(join(dir, ".issue-"));
  try {
    const t = (f: string): string => join(tmp, f);
    const san = hosts.map((h) => (parseIPSloppy(h) ? `IP:${h}` : `DNS:${h}`)).join(",");
    writeFileSync(
      t("serving.ext"),
      `subjectAltName=${san}\nbasicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n`,
    );
    // Keys come from node:crypto (PKCS#8, readable by every TLS stack); only the certificates need openssl.
    for (const f of withCA ? ["ca.key", "serving.key"] : ["serving.key"]) {
      const { privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
      writeFileSync(t(f), privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
    }
    const ca = withCA ? tmp : dir;
    if (withCA)
      openssl(
        [
          "req",
          "-x509",
          "-new",
          "-key",
          "ca.key",
          "-sha256",
          "-days",
          "3650",
          "-subj",
          "/CN=servicenet-ca",
          "-addext",
          "basicConstraints=critical,CA:TRUE",
          "-addext",
          "keyUsage=critical,keyCertSign,cRLSign,digitalSignature",
          "-out",
          "ca.crt",
        ],
        tmp,
      );
    openssl(["req", "-new", "-key", "serving.key", "-subj", "/CN=servicenet-apiserver", "-out", "serving.csr"], tmp);
    const serial = `0x${randomBytes(16).toString("hex")}`;
    openssl(
      [
        "x509",
        "-req",
        "-in",
        "serving.csr",
        "-CA",
        join(ca, "ca.crt"),
        "-CAkey",
        join(ca, "ca.key"),
        "-set_serial",
        serial,
        "-days",
        "3650",
        "-sha256",
        "-extfile",
        "serving.ext",
        "-out",
        "serving.crt",
      ],
      tmp,
    );
    for (const f of withCA ? ["ca.key", "ca.crt", "serving.key", "serving.crt"] : ["serving.key", "serving.crt"])
      renameSync(t(f), join(dir, f));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** A client certificate and key (PEM) for the x509 authenticator. */
export interface ClientCert {
  cert: string;
  key: string;
}

/**
 * Loads `dir`/`file`.{crt,key}, issuing them first (signed by the CA of {@link ensureServingCerts})
 * when absent or when the subject differs: CN the user, one O per group, extendedKeyUsage
 * clientAuth, as kubeadm's `admin.conf` and component certificates
 * (cmd/kubeadm/app/phases/kubeconfig). Call after ensureServingCerts made the CA.
 */
export function ensureClientCert(dir: string, file: string, cn: string, orgs: readonly string[] = []): ClientCert {
  dir = resolve(dir);
  const crt = join(dir, `${file}.crt`);
  const keyPath = join(dir, `${file}.key`);
  const subject = `${orgs.map((o) => `O=${o}`).join("\n")}${orgs.length > 0 ? "\n" : ""}CN=${cn}`;
  // Another process may be issuing the same files: a key and certificate that do not match were
  // read between its two renames, so they are read again (and issued by us at most once).
  let issued = false;
  for (let attempt = 0; ; attempt++) {
    const have =
      existsSync(crt) && existsSync(keyPath) ? { cert: readFileSync(crt, "utf8"), key: readFileSync(keyPath, "utf8") } : undefined;
    const x = have ? new X509Certificate(have.cert) : undefined;
    const matches = have && x ? x.checkPrivateKey(createPrivateKey(have.key)) : false;
    if (have && x && matches && x.subject === subject) return have;
    if (have && x && !matches && attempt < 10) continue;
    if (issued) throw new Error(`client certificate ${crt}: issued but not readable`);
    issueClientCert(dir, crt, keyPath, cn, orgs);
    issued = true;
  }
}

function issueClientCert(dir: string, crt: string, keyPath: string, cn: string, orgs: readonly string[]): void {
  const tmp = mkdtempSync(join(dir, ".issue-"));
  try {
    const t = (f: string): string => join(tmp, f);
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
    writeFileSync(t("client.key"), privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
    writeFileSync(
      t("client.ext"),
      "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n",
    );
    const subj = `${orgs.map((o) => `/O=${o}`).join("")}/CN=${cn}`;
    openssl(["req", "-new", "-key", "client.key", "-subj", subj, "-out", "client.csr"], tmp);
    openssl(
      [
        "x509",
        "-req",
        "-in",
        "client.csr",
        "-CA",
        join(dir, "ca.crt"),
        "-CAkey",
        join(dir, "ca.key"),
        "-set_serial",
        `0x${randomBytes(16).toString("hex")}`,
        "-days",
        "3650",
        "-sha256",
        "-extfile",
        "client.ext",
        "-out",
        "client.crt",
      ],
      tmp,
    );
    renameSync(t("client.key"), keyPath);
    renameSync(t("client.crt"), crt);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
