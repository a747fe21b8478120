/**
 * List continue tokens in upstream's format (storage/continue.go):
 * base64url(JSON {"v":"meta.k8s.io/v1","rv":<revision>,"start":"<next key without the list prefix>"}).
 * `rv: -1` means "continue at the latest revision" (an inconsistent continuation).
 */
import { StatusError } from "@servicenet/api/errors";

interface TokenBody {
  v: string;
  rv: number;
  start: string;
}

const tokenVersion = "meta.k8s.io/v1";

/** A token resuming at `nextKey` (absolute) under `prefix`, at `revision`. */
export function encodeContinue(prefix: string, nextKey: string, revision: number): string {
  const body: TokenBody = { v: tokenVersion, rv: revision, start: nextKey.slice(prefix.length) };
  return Buffer.from(JSON.stringify(body)).toString("base64url");
}

/** The absolute start key and revision of a token; BadRequest when the token is malformed. */
export function decodeContinue(token: string, prefix: string): { startKey: string; revision: number } {
  let body: Partial<TokenBody>;
  try {
    body = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as Partial<TokenBody>;
  } catch {
    throw invalid("continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
  }
  if (body.v !== tokenVersion)
    throw invalid(`continue key is not valid: server does not recognize this encoded version "${String(body.v)}"`);
  if (typeof body.rv !== "number" || !Number.isInteger(body.rv) || body.rv === 0) {
    throw invalid("continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
  }
  const start = body.start;
  if (typeof start !== "string" || start.length === 0) throw invalid("continue key is not valid: encoded start key empty");
  // Upstream path.Clean-checks the key; a token must not walk out of the listed prefix.
  if (start.split("/").some((seg) => seg === ".." || seg === "."))
    throw invalid("continue key is not valid: path traversal attempt detected");
  return { startKey: prefix + start, revision: body.rv };
}

function invalid(msg: string): StatusError {
  return StatusError.badRequest(`invalid continue token: ${msg}`);
}
