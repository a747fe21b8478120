/** A self-signed certificate for 127.0.0.1 and its key, made by openssl, for the TLS tests. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** PEM certificate (usable as server, CA and client certificate) and its unencrypted key. */
export function selfSignedCert(): { cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), "self-signed-"));
  try {
    const out = (f: string) => join(dir, f);
    const subject = ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"];
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", ...subject, "-keyout", out("key.pem"), "-out", out("cert.pem")],
      {
        stdio: "ignore",
      },
    );
    return { cert: readFileSync(out("cert.pem"), "utf8"), key: readFileSync(out("key.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
