/** client-go util/cert: a self-signed serving certificate for components that serve HTTPS. */
export { generateSelfSignedCertKey, openssl } from "./cert.ts";
export type { CertKey } from "./cert.ts";
