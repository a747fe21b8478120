/**
 * Bearer-token authentication from a static token file in kube-apiserver's `--token-auth-file`
 * format: CSV lines `token,user,uid[,"group1,group2"]`.
 */
import { readFileSync } from "node:fs";
import { timingSafeEqual } from "node:crypto";
import { StatusError } from "@servicenet/api";
import type { UserInfo } from "../authentication/user/user.ts";

export type { UserInfo };

/** Paths anyone may read (upstream's system:public-info-viewer and health checks). */
export const publicPaths: ReadonlySet<string> = new Set(["/healthz", "/livez", "/readyz", "/version"]);

/** Parses token file text; malformed lines are errors naming the line. */
export function parseTokenFile(text: string): Map<string, UserInfo> {
  const out = new Map<string, UserInfo>();
  text.split(/\r?\n/).forEach((line, i) => {
    const l = line.trim();
    if (l === "" || l.startsWith("#")) return;
    const m = /^([^,]+),([^,]+),([^,]+)(?:,"?([^"]*)"?)?$/.exec(l);
    if (!m) throw new Error(`token file line ${i + 1}: expected token,user,uid[,"groups"]`);
    out.set(m[1]!, { name: m[2]!, uid: m[3]!, groups: [...(m[4] ? m[4].split(",") : []), "system:authenticated"] });
  });
  return out;
}

/** Loads a token file from disk. */
export function loadTokenFile(path: string): Map<string, UserInfo> {
  return parseTokenFile(readFileSync(path, "utf8"));
}

/**
 * The user of a request's `Authorization` header, as upstream's bearer-token authenticator
 * (`staging/src/k8s.io/apiserver/pkg/authentication/request/bearertoken/bearertoken.go`) in front
 * of the anonymous one (`union.NewFailOnError` in `pkg/kubeapiserver/authenticator/config.go`):
 * no header, another scheme or an empty token is anonymous (undefined); a bearer token that no
 * user has is an error, never anonymous, so it is a 401 even on the public paths.
 */
export function authenticateRequest(tokens: ReadonlyMap<string, UserInfo>, header: string | undefined): UserInfo | undefined {
  const auth = (header ?? "").trim();
  if (auth === "") return undefined;
  const parts = auth.split(" ");
  if (parts.length < 2 || parts[0]!.toLowerCase() !== "bearer") return undefined;
  // "Bearer a b" authenticates "a", as upstream's split on single spaces does.
  const token = parts[1]!;
  if (token === "") return undefined;
  const user = lookupToken(tokens, token);
  if (user === undefined) throw StatusError.unauthorized();
  return user;
}

function lookupToken(tokens: ReadonlyMap<string, UserInfo>, token: string): UserInfo | undefined {
  const given = Buffer.from(token);
  for (const [t, user] of tokens) {
    const b = Buffer.from(t);
    if (b.length === given.length && timingSafeEqual(b, given)) return user;
  }
  return undefined;
}
