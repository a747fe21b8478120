/** client-go util/keyutil: private and public keys from PEM files, and a service-account key pair made once. */
export { ensureServiceAccountKeyFiles, parsePrivateKeyPEM, parsePublicKeysPEM, privateKeyFromFile, publicKeysFromFile } from "./key.ts";
