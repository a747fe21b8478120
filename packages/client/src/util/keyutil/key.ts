/**
 * Key files as kube-apiserver and kube-controller-manager read them (staging/src/k8s.io/client-go/util/keyutil/key.go):
 * `PrivateKeyFromFile` (the first RSA or EC private key of a PEM file) and `PublicKeysFromFile`
 * (every RSA or ECDSA public key of a PEM file: public keys, certificates, and private keys'
 * public halves), and the service-account signing key `servicenet up` makes once, as kubeadm's
 * `sa.key`/`sa.pub`.
 */
import { X509Certificate, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const pemBlock = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n[\s\S]*?-----END \1-----/g;

/** The PEM blocks of a text: type and the whole block. */
function pemBlocks(text: string): { type: string; pem: string }[] {
  return [...text.matchAll(pemBlock)].map((m) => ({ type: m[1]!, pem: m[0] }));
}

/** RSA and ECDSA only, as keyutil (and the JWT signers) support. */
function supported(key: KeyObject): boolean {
  return key.asymmetricKeyType === "rsa" || key.asymmetricKeyType === "ec";
}

/** ParsePrivateKeyPEM: the first RSA (PKCS#1 or PKCS#8) or EC private key. */
export function parsePrivateKeyPEM(text: string): KeyObject {
  for (const b of pemBlocks(text)) {
    if (b.type !== "RSA PRIVATE KEY" && b.type !== "PRIVATE KEY" && b.type !== "EC PRIVATE KEY") continue;
    const key = createPrivateKey(b.pem);
    if (supported(key)) return key;
  }
  throw new Error("data does not contain a valid RSA or ECDSA private key");
}

/** PrivateKeyFromFile. */
export function privateKeyFromFile(file: string): KeyObject {
  const text = readFileSync(file, "utf8");
  try {
    return parsePrivateKeyPEM(text);
  } catch (e) {
    throw new Error(`error reading private key file ${file}: ${(e as Error).message}`);
  }
}

/** ParsePublicKeysPEM: every RSA or ECDSA public key in the blocks (public keys, certificates, private keys). */
export function parsePublicKeysPEM(text: string): KeyObject[] {
  const keys: KeyObject[] = [];
  for (const b of pemBlocks(text)) {
    let key: KeyObject | undefined;
    try {
      if (b.type === "CERTIFICATE") key = new X509Certificate(b.pem).publicKey;
      else if (b.type.endsWith("PRIVATE KEY")) key = createPublicKey(createPrivateKey(b.pem));
      else if (b.type.endsWith("PUBLIC KEY")) key = createPublicKey(b.pem);
    } catch {
      key = undefined;
    }
    if (key !== undefined && supported(key)) keys.push(key);
  }
  if (keys.length === 0) throw new Error("data does not contain any valid RSA or ECDSA public keys");
  return keys;
}

/** PublicKeysFromFile. */
export function publicKeysFromFile(file: string): KeyObject[] {
  const text = readFileSync(file, "utf8");
  try {
    return parsePublicKeysPEM(text);
  } catch (e) {
    throw new Error(`error reading public key file ${file}: ${(e as Error).message}`);
  }
}

/**
 * kubeadm's service-account key pair (cmd/kubeadm/app/phases/certs/certs.go CreateServiceAccountKeyAndPublicKeyFiles):
 * `sa.key` (RSA 2048, PKCS#1) and `sa.pub` (PKIX) in `dir`, made when absent and kept after.
 * Written under temporary names and renamed, key first, so a concurrent start reads whole files.
 */
export function ensureServiceAccountKeyFiles(dir: string): { keyFile: string; pubFile: string } {
  const keyFile = join(dir, "sa.key");
  const pubFile = join(dir, "sa.pub");
  if (existsSync(keyFile) && existsSync(pubFile)) return { keyFile, pubFile };
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const tmp = `.${process.pid}.tmp`;
  writeFileSync(keyFile + tmp, privateKey.export({ type: "pkcs1", format: "pem" }), { mode: 0o600 });
  writeFileSync(pubFile + tmp, publicKey.export({ type: "spki", format: "pem" }), { mode: 0o600 });
  renameSync(keyFile + tmp, keyFile);
  renameSync(pubFile + tmp, pubFile);
  return { keyFile, pubFile };
}
