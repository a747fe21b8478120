/** authentication.k8s.io/v1: TokenRequest, its defaulting and validation. */
export * from "./token-request.ts";
export * from "./validation.ts";
