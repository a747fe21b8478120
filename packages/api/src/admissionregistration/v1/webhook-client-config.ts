/**
 * Validation of a webhook's client config (k8s.io/apiserver/pkg/util/webhook/validation.go
 * ValidateWebhookURL, ValidateWebhookService). URLs are split as Go's net/url.Parse splits them,
 * so that the values in the messages are the ones kube-apiserver reports.
 */
import { field, path, type FieldErrorList } from "../../errors/index.ts";
import { isDNS1123Subdomain, isValidPortNum } from "../../meta/v1/validation/name.ts";

/** The parts of a URL upstream's validation looks at. */
export interface GoURL {
  scheme: string;
  host: string;
  /** userinfo as `(*url.Userinfo).String()` prints it; undefined when there is none. */
  user?: string;
  rawQuery: string;
  fragment: string;
}

const quote = (s: string): string => JSON.stringify(s);

/** getScheme of net/url: the scheme, or "" when the text before ':' is not one. */
function splitScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+.-]/.test(c)) {
      if (i === 0) return ["", raw];
      continue;
    }
    if (c === ":") {
      if (i === 0) throw new Error("missing protocol scheme");
      return [raw.slice(0, i).toLowerCase(), raw.slice(i + 1)];
    }
    return ["", raw];
  }
  return ["", raw];
}

/** net/url.Parse, reduced to what validation reads; throws with Go's error text. */
export function parseGoURL(raw: string): GoURL {
  try {
    if (/[\x00-\x1f\x7f]/.test(raw)) throw new Error("net/url: invalid control character in URL");
    const hash = raw.indexOf("#");
    const fragment = hash === -1 ? "" : raw.slice(hash + 1);
    const [scheme, afterScheme] = splitScheme(hash === -1 ? raw : raw.slice(0, hash));
    const q = afterScheme.indexOf("?");
    const rest = q === -1 ? afterScheme : afterScheme.slice(0, q);
    const rawQuery = q === -1 ? "" : afterScheme.slice(q + 1);
    const u: GoURL = { scheme, host: "", rawQuery, fragment };
    if (!rest.startsWith("/")) {
      if (scheme === "" && (rest.split("/")[0] ?? "").includes(":")) throw new Error("first path segment in URL cannot contain colon");
      return u;
    }
    if ((scheme !== "" || !rest.startsWith("///")) && rest.startsWith("//")) {
      const slash = rest.indexOf("/", 2);
      const authority = slash === -1 ? rest.slice(2) : rest.slice(2, slash);
      const at = authority.lastIndexOf("@");
      if (at !== -1) u.user = authority.slice(0, at);
      u.host = authority.slice(at + 1);
    }
    return u;
  } catch (e) {
    throw new Error(`parse ${quote(raw)}: ${(e as Error).message}`);
  }
}

const form = "; desired format: https://host[/path]";

/** ValidateWebhookURL: https only (when `forceHttps`), a host, no user, fragment or query. */
export function validateWebhookURL(fld: string, url: string, forceHttps: boolean): FieldErrorList {
  let u: GoURL;
  try {
    u = parseGoURL(url);
  } catch (e) {
    return [field.required(fld, `url must be a valid URL: ${(e as Error).message}${form}`)];
  }
  const errs: FieldErrorList = [];
  if (forceHttps && u.scheme !== "https") errs.push(field.invalid(fld, u.scheme, `'https' is the only allowed URL scheme${form}`));
  if (u.host === "") errs.push(field.invalid(fld, u.host, `host must be specified${form}`));
  if (u.user !== undefined) errs.push(field.invalid(fld, u.user, "user information is not permitted in the URL"));
  if (u.fragment !== "") errs.push(field.invalid(fld, u.fragment, "fragments are not permitted in the URL"));
  if (u.rawQuery !== "") errs.push(field.invalid(fld, u.rawQuery, "query parameters are not permitted in the URL"));
  return errs;
}

/**
 * ValidateWebhookService. Upstream's callers pass the service's name where the function expects
 * the namespace and the reverse, so a missing namespace is reported at `name` and the reverse;
 * kept, since clients see those paths.
 */
export function validateWebhookService(
  fld: string,
  name: string,
  namespace: string,
  urlPath: string | undefined,
  port: number,
): FieldErrorList {
  const errs: FieldErrorList = [];
  if (namespace === "") errs.push(field.required(path(fld, "name")));
  if (name === "") errs.push(field.required(path(fld, "namespace")));
  const portErrs = isValidPortNum(port);
  if (portErrs.length > 0) errs.push(field.invalid(path(fld, "port"), port, `port is not valid: ${portErrs.join(", ")}`));
  if (urlPath === undefined || urlPath === "" || urlPath === "/") return errs;
  const pathFld = path(fld, "path");
  if (urlPath === "//") return [...errs, field.invalid(pathFld, urlPath, "segment[0] may not be empty")];
  if (!urlPath.startsWith("/")) errs.push(field.invalid(pathFld, urlPath, "must start with a '/'"));
  let toCheck = urlPath.slice(1);
  if (toCheck.endsWith("/")) toCheck = toCheck.slice(0, -1);
  toCheck.split("/").forEach((step, i) => {
    if (step === "") return void errs.push(field.invalid(pathFld, urlPath, `segment[${i}] may not be empty`));
    for (const failure of isDNS1123Subdomain(step)) errs.push(field.invalid(pathFld, urlPath, `segment[${i}]: ${failure}`));
  });
  return errs;
}
