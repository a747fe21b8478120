/**
 * `--token-auth-file` (staging/src/k8s.io/apiserver/pkg/authentication/token/tokenfile/tokenfile.go):
 * CSV records `token,user,uid[,"group1,group2"]` read with Go's encoding/csv rules (quoted fields,
 * `""` for a quote, any number of fields per record); the first three are required.
 */
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import { readFileSync } from "node:fs";
import { timingSafeEqual } from "node:crypto";
import type { UserInfo } from "../../user/user.ts";
import type { AuthResponse, TokenAuthenticator } from "../../authenticator/interfaces.ts";

/** encoding/csv Reader with FieldsPerRecord = -1: records of fields, blank lines skipped. */
export function parseCSV(text: string): string[][] {
  const records: string[][] = [];
  let i = 0;
  let line = 1;
  while (i < text.length) {
    if (text[i] === "\n" || (text[i] === "\r" && text[i + 1] === "\n")) {
      i += text[i] === "\r" ? 2 : 1;
      line++;
      continue;
    }
    const fields: string[] = [];
    for (;;) {
      let field = "";
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= text.length) throw new Error(`record on line ${line}: extraneous or missing " in quoted-field`);
          if (text[i] === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (text[i] === "\n") line++;
          field += text[i++];
        }
        if (i < text.length && text[i] !== "," && text[i] !== "\n" && text[i] !== "\r")
          throw new Error(`parse error on line ${line}: extraneous or missing " in quoted-field`);
      } else {
        while (i < text.length && text[i] !== "," && text[i] !== "\n" && !(text[i] === "\r" && text[i + 1] === "\n")) {
          if (text[i] === '"') throw new Error(`parse error on line ${line}: bare " in non-quoted-field`);
          field += text[i++];
        }
      }
      fields.push(field);
      if (text[i] === ",") {
        i++;
        continue;
      }
      break;
    }
    records.push(fields);
  }
  return records;
}

/**
 * NewCSV's parsing: token → user. Records with an empty token are skipped, a later duplicate wins
 * (upstream logs both); fewer than three columns is an error naming the file.
 */
export function parseTokenFile(text: string, path = "", logger: Logger = noopLogger): Map<string, UserInfo> {
  const tokens = new Map<string, UserInfo>();
  let recordNum = 0;
  for (const record of parseCSV(text)) {
    if (record.length < 3)
      throw new Error(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`);
    recordNum++;
    if (record[0] === "") {
      // klog.Warningf: written at any -v.
      logger.info(`empty token has been found in token file '${path}', record number '${recordNum}'`);
      continue;
    }
    if (tokens.has(record[0]!)) logger.info(`duplicate token has been found in token file '${path}', record number '${recordNum}'`);
    tokens.set(record[0]!, { name: record[1]!, uid: record[2]!, groups: record.length >= 4 ? record[3]!.split(",") : [] });
  }
  return tokens;
}

/** NewCSV: reads the file. */
export function loadTokenFile(path: string, logger: Logger = noopLogger): Map<string, UserInfo> {
  return parseTokenFile(readFileSync(path, "utf8"), path, logger);
}

/** TokenAuthenticator over a parsed file; tokens are compared in constant time. */
export class TokenFileAuthenticator implements TokenAuthenticator {
  private readonly tokens: ReadonlyMap<string, UserInfo>;

  constructor(tokens: ReadonlyMap<string, UserInfo>) {
    this.tokens = tokens;
  }

  authenticateToken(token: string): AuthResponse | undefined {
    const given = Buffer.from(token);
    for (const [t, user] of this.tokens) {
      const b = Buffer.from(t);
      if (b.length === given.length && timingSafeEqual(b, given)) return { user };
    }
    return undefined;
  }
}
