/**
 * The root CA half of cmd/kube-controller-manager/app/certificates.go `startRootCACertPublisher`:
 * the bundle published is --root-ca-file's when set (`readCA`: every PEM block a certificate),
 * else the CA the controller's own client config trusts (`ConfigOrDie("root-ca-cert-publisher").CAData`).
 */
import { readFileSync } from "node:fs";
import { X509Certificate } from "node:crypto";
import type { KubeConfig } from "@kubernetes/client-node";

const pemBlock = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

/** readCA: the file's bytes, refused unless they are one or more PEM certificates (cert.ParseCertsPEM). */
export function readCA(file: string): string {
  const pem = readFileSync(file, "utf8");
  const blocks = [...pem.matchAll(pemBlock)];
  if (blocks.length === 0) throw new Error("data does not contain any valid RSA or ECDSA certificates");
  for (const b of blocks) {
    if (b[1] !== "CERTIFICATE") continue;
    try {
      new X509Certificate(b[0]);
    } catch (err) {
      throw new Error((err as Error).message, { cause: err });
    }
  }
  if (!blocks.some((b) => b[1] === "CERTIFICATE")) throw new Error("data does not contain any valid RSA or ECDSA certificates");
  return pem;
}

/**
 * The CA bundle `startRootCACertPublisher` publishes: --root-ca-file, else the kubeconfig cluster's
 * certificate-authority-data or certificate-authority file ("" for a cluster without one, as upstream).
 * @throws Error `error parsing root-ca-file at <path>: ...` for an unreadable or invalid file.
 */
export function rootCABundle(rootCAFile: string, kubeConfig: KubeConfig): string {
  if (rootCAFile !== "") {
    try {
      return readCA(rootCAFile);
    } catch (err) {
      throw new Error(`error parsing root-ca-file at ${rootCAFile}: ${(err as Error).message}`, { cause: err });
    }
  }
  const cluster = kubeConfig.getCurrentCluster();
  if (cluster?.caData !== undefined && cluster.caData !== "") return Buffer.from(cluster.caData, "base64").toString("utf8");
  if (cluster?.caFile !== undefined && cluster.caFile !== "") return readFileSync(cluster.caFile, "utf8");
  return "";
}
