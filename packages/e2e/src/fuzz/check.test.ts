import { describe, expect, it } from "vitest";
import type { FuzzCase } from "./cases.ts";
import { checkAnswer, parseStatus } from "./check.ts";
import type { RawResponse } from "./raw-client.ts";

// kube-apiserver's YAML for a list from a future resourceVersion (found by the 20,000-request run).
const tooLargeYAML = `apiVersion: v1
code: 504
details:
  causes:
    - message: Too large resource version
      reason: ResourceVersionTooLarge
  retryAfterSeconds: 1
kind: Status
message: "Too large resource version: 100000000000000000000, current: 62"
metadata: {}
reason: Timeout
status: Failure
`;
const answer = (body: string, contentType: string): RawResponse => ({
  status: 504,
  headers: { "content-type": contentType },
  body: Buffer.from(body),
  cut: false,
});
const listEvents = {
  method: "GET",
  path: "/api/v1/events?resourceVersion=99999999999999999999",
  headers: { accept: "application/yaml" },
  label: "GET events",
  flaw: "",
} as unknown as FuzzCase;

describe("fuzz answer checks", () => {
  it("reads the causes of a YAML Status, so upstream's 504 for a future resourceVersion is allowed in YAML too", () => {
    const r = answer(tooLargeYAML, "application/yaml");
    expect(parseStatus(r)).toMatchObject({ code: 504, reason: "Timeout", details: { causes: [{ reason: "ResourceVersionTooLarge" }] } });
    expect(checkAnswer(listEvents, r)).toEqual([]);
  });

  it("still flags a 504 without that cause, in YAML and JSON", () => {
    const yaml = tooLargeYAML.replace("reason: ResourceVersionTooLarge", "reason: Other");
    expect(checkAnswer(listEvents, answer(yaml, "application/yaml"))).toEqual([expect.stringContaining("HTTP 504")]);
    const json = JSON.stringify({ kind: "Status", apiVersion: "v1", status: "Failure", code: 504, reason: "Timeout", message: "m" });
    expect(checkAnswer(listEvents, answer(json, "application/json"))).toEqual([expect.stringContaining("HTTP 504")]);
  });
});
