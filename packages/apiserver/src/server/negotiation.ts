/**
 * Content negotiation: which representation the client accepts (JSON, YAML, meta.k8s.io Table,
 * PartialObjectMetadata) and which media type a request body is in.
 */
import { StatusError } from "@servicenet/api";

export type OutputFormat = "json" | "yaml" | "table" | "partial";

interface MediaRange {
  type: string;
  params: Map<string, string>;
}

function parseAccept(accept: string): MediaRange[] {
  return accept
    .split(",")
    .map((part) => {
      const [type = "", ...ps] = part.split(";").map((s) => s.trim());
      return {
        type: type.toLowerCase(),
        params: new Map(
          ps.map((p) => {
            const i = p.indexOf("=");
            return [p.slice(0, i).trim(), p.slice(i + 1).trim()] as [string, string];
          }),
        ),
      };
    })
    .filter((m) => m.type !== "" && m.params.get("q") !== "0");
}

const notAcceptable = (): StatusError =>
  StatusError.notAcceptable(
    "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf",
  );

/**
 * The first acceptable representation in the client's order; 406 when there is none. Without
 * `allowTransform` (upstream's DefaultEndpointRestrictions, as discovery documents are served),
 * ranges asking for a Table or PartialObjectMetadata are passed over.
 */
export function negotiateOutput(accept: string | undefined, allowTransform = true): OutputFormat {
  if (accept === undefined || accept.trim() === "") return "json";
  for (const m of parseAccept(accept)) {
    const as = m.params.get("as");
    const isJSON = m.type === "application/json";
    if (as !== undefined) {
      if (!allowTransform || !isJSON || m.params.get("g") !== "meta.k8s.io" || !["v1", "v1beta1"].includes(m.params.get("v") ?? ""))
        continue;
      if (as === "Table") return "table";
      if (as === "PartialObjectMetadata" || as === "PartialObjectMetadataList") return "partial";
      continue;
    }
    if (isJSON || m.type === "*/*" || m.type === "application/*") return "json";
    if (m.type === "application/yaml") return "yaml";
  }
  throw notAcceptable();
}

/**
 * NegotiateOutputMediaTypeStream: a watch needs a streaming serializer, which YAML has not; 406
 * naming every media type, as upstream's NewNotAcceptableError(supported) does.
 */
export function negotiateOutputStream(accept: string | undefined): OutputFormat {
  const format = negotiateOutput(accept);
  if (format === "yaml") throw notAcceptable();
  return format;
}

/** Media types request bodies may use for create/update. */
export type BodyFormat = "json" | "yaml" | "protobuf";

/** The body format from Content-Type; 415 for anything else. */
export function bodyFormat(contentType: string | undefined): BodyFormat {
  const base = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (base === "" || base === "application/json") return "json";
  if (base === "application/yaml" || base === "application/x-yaml" || base === "text/yaml") return "yaml";
  if (base === "application/vnd.kubernetes.protobuf") return "protobuf";
  throw StatusError.unsupportedMediaType(base);
}
