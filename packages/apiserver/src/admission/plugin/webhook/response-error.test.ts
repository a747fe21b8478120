/**
 * The rest client's error for a webhook's non-2xx answer (client-go rest/request.go
 * transformResponse and Result.Error, apimachinery errors.go NewGenericServerResponse).
 */
import { describe, expect, it } from "vitest";
import { responseErrorMessage } from "./response-error.ts";

const status = (message: string, st = "Failure") => JSON.stringify({ kind: "Status", apiVersion: "v1", status: st, message });

describe("responseErrorMessage", () => {
  it.each<[string, number, string | undefined, string, string]>([
    ["a Failure Status is its own error", 400, "application/json", status("bad body"), "bad body"],
    [
      "a Success Status is not",
      400,
      "application/json",
      status("fine", "Success"),
      "the server rejected our request for an unknown reason",
    ],
    [
      "422 as text",
      422,
      "text/plain; charset=utf-8",
      "Cannot handle v1 ConversionReview\n",
      "the server rejected our request due to an error in our request",
    ],
    ["404", 404, "text/plain", "404 page not found", "the server could not find the requested resource"],
    ["409", 409, undefined, "", "the server reported a conflict"],
    ["403 quotes the text", 403, "text/plain", " denied \n", "denied"],
    [
      "406 without a text",
      406,
      "application/octet-stream",
      "x",
      "the server was unable to respond with a content type that the client supports",
    ],
    ["500 quotes the text", 500, "text/plain", "boom\n", 'an error on the server ("boom") has prevented the request from succeeding'],
    [
      "500 with another body",
      500,
      "application/json",
      "{}",
      'an error on the server ("unknown") has prevented the request from succeeding',
    ],
    ["any other code", 418, "text/plain", "teapot", "the server responded with the status code 418 but did not return more information"],
  ])("%s", (_name, code, contentType, body, want) => {
    expect(responseErrorMessage(code, contentType, body)).toBe(want);
  });
});
