/**
 * The loopback client's token (staging/src/k8s.io/apiserver/pkg/server/config.go
 * AuthorizeClientBearerToken): a random token, made at each start, that authenticates as
 * `system:apiserver` in `system:masters`. The server uses it to call itself, e.g. a webhook at
 * `kubernetes.default.svc`.
 */
import { randomUUID } from "node:crypto";
import { allAuthenticated, apiserverUser, systemPrivilegedGroup, type UserInfo } from "./user/user.ts";

/** A fresh loopback token and the token map that also accepts it. */
export function withLoopbackToken(tokens: ReadonlyMap<string, UserInfo>): { token: string; tokens: ReadonlyMap<string, UserInfo> } {
  const token = randomUUID();
  const user: UserInfo = { name: apiserverUser, uid: randomUUID(), groups: [allAuthenticated, systemPrivilegedGroup] };
  return { token, tokens: new Map([...tokens, [token, user]]) };
}
