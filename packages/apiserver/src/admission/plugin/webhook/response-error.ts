/**
 * The error of a webhook's non-2xx answer, as the rest client of k8s.io/apiserver/pkg/util/webhook
 * makes it (k8s.io/client-go/rest/request.go transformResponse, newUnstructuredResponseError and
 * Result.Error): a Status body with status Failure is the error itself (apierrors.FromObject);
 * any other body gets apierrors.NewGenericServerResponse's message for the code, which quotes a
 * text body only where upstream does (403, 406, 415 and codes of 500 and over).
 */

/** maxUnstructuredResponseTextBytes: how much of a text body an error quotes. */
const maxTextBytes = 2048;

const messages: Readonly<Record<number, string>> = {
  409: "the server reported a conflict",
  404: "the server could not find the requested resource",
  400: "the server rejected our request for an unknown reason",
  401: "the server has asked for the client to provide credentials",
  405: "the server does not allow this method on the requested resource",
  422: "the server rejected our request due to an error in our request",
  503: "the server is currently unable to handle the request",
  504: "the server was unable to return a response in the time allotted, but may still be processing the request",
  429: "the server has received too many requests and has asked us to try again later",
};

/** The message of the error a `code` answer with `body` (of `contentType`) gives. */
export function responseErrorMessage(code: number, contentType: string | undefined, body: string): string {
  const status = failureStatusMessage(body);
  if (status !== undefined) return status;
  // isTextResponse: only a text/* body is quoted, trimmed and capped; any other is "unknown".
  const text = /^\s*text\//i.test(contentType ?? "");
  const serverMessage = text ? Buffer.from(body).subarray(0, maxTextBytes).toString("utf8").trim() : "unknown";
  const known = messages[code];
  if (known !== undefined) return known;
  if (code === 403 || code === 415) return serverMessage;
  if (code === 406)
    return serverMessage === "" || serverMessage === "unknown"
      ? "the server was unable to respond with a content type that the client supports"
      : serverMessage;
  if (code >= 500) return `an error on the server (${JSON.stringify(serverMessage)}) has prevented the request from succeeding`;
  return `the server responded with the status code ${code} but did not return more information`;
}

/** Result.Error: a body that decodes as a Status with status Failure stands for itself. */
function failureStatusMessage(body: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const s = parsed as { kind?: unknown; status?: unknown; message?: unknown };
  if (s.kind !== "Status" || s.status !== "Failure") return undefined;
  return typeof s.message === "string" ? s.message : "";
}
