/**
 * Decoding a configuration file as apimachinery's universal decoder does (runtime.Decode over a
 * CodecFactory's UniversalDecoder: k8s.io/apimachinery/pkg/runtime/serializer/json/json.go Decode
 * and runtime/scheme.go New): YAML or JSON, `kind` and `apiVersion` required, and the pair must be
 * registered in the scheme. The errors carry upstream's words and which check failed, since callers
 * such as ReadAdmissionConfiguration tolerate some of them.
 */
import { parse as parseYAML } from "yaml";

/** Which check of the decoder failed (runtime.IsMissingKind, IsMissingVersion, IsNotRegisteredError). */
export type DecodeErrorReason = "Syntax" | "MissingKind" | "MissingVersion" | "NotRegistered";

export class DecodeError extends Error {
  readonly reason: DecodeErrorReason;
  constructor(reason: DecodeErrorReason, message: string) {
    super(message);
    this.name = "DecodeError";
    this.reason = reason;
  }
}

/** A kind a scheme knows. */
export interface RegisteredKind {
  apiVersion: string;
  kind: string;
}

/** The document as parsed, or a Syntax DecodeError (sigs.k8s.io/yaml's YAMLToJSON wording). */
export function parseDocument(data: string): unknown {
  try {
    return parseYAML(data) as unknown;
  } catch (e) {
    throw new DecodeError("Syntax", `error converting YAML to JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * Decodes `data` into one of `registered`; `scheme` names the scheme in the not-registered error
 * (upstream names a scheme by the file that made it). Resolves with the parsed object.
 */
export function decodeConfigObject(data: string, registered: readonly RegisteredKind[], scheme: string): Record<string, unknown> {
  const raw = parseDocument(data);
  const obj = (raw !== null && typeof raw === "object" && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
  const kind = typeof obj["kind"] === "string" ? obj["kind"] : "";
  const apiVersion = typeof obj["apiVersion"] === "string" ? obj["apiVersion"] : "";
  // json.go Decode: the original bytes are quoted, kind checked before version.
  if (kind === "") throw new DecodeError("MissingKind", `Object 'Kind' is missing in '${data}'`);
  if (apiVersion === "") throw new DecodeError("MissingVersion", `Object 'apiVersion' is missing in '${data}'`);
  if (!registered.some((r) => r.apiVersion === apiVersion && r.kind === kind)) {
    // A core-group version prints without a slash; runtime.notRegisteredErr quotes the GroupVersion.
    throw new DecodeError("NotRegistered", `no kind "${kind}" is registered for version "${apiVersion}" in scheme "${scheme}"`);
  }
  return obj;
}
