/**
 * Bearer-token authentication from a static token file in kube-apiserver's `--token-auth-file`
 * format: CSV lines `token,user,uid[,"group1,group2"]`.
 */
import { readFileSync } from "node:fs";
import { timingSafeEqual } from "node:crypto";

export interface UserInfo {
  name: string;
  uid: string;
  groups: string[];
}

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

/** The user of an `Authorization: Bearer <token>` header, or undefined. */
export function authenticate(tokens: ReadonlyMap<string, UserInfo>, header: string | undefined): UserInfo | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  if (!m) return undefined;
  const given = Buffer.from(m[1]!);
  for (const [token, user] of tokens) {
    const t = Buffer.from(token);
    if (t.length === given.length && timingSafeEqual(t, given)) return user;
  }
  return undefined;
}
