/**
 * A traced flow as HTML for the dataplane page: the same report `servicenet
 * trace` prints (trace-render.ts), as a table per outcome: hook, table and
 * chain, the rule as written, its comment, the branch probability and the
 * action (jump, DNAT, mark, verdict). Every string from the API is escaped.
 */
import { escapeHTML as esc } from "@servicenet/printers/usage";
import type { TraceStep } from "@servicenet/kube-proxy";
import { describeDestination, describeSource, pct, renderVerdict } from "./trace-render.ts";
import type { TraceReport } from "./trace-render.ts";
import { causeText, type StepCause } from "./trace-causes.ts";

const hookNames = { prerouting: "PREROUTING", input: "INPUT", forward: "FORWARD", output: "OUTPUT", postrouting: "POSTROUTING" } as const;

function stepRow(s: TraceStep, cause: StepCause | undefined): string {
  return (
    `<tr><td>${hookNames[s.hook]}</td><td><code>${esc(s.table)}/${esc(s.chain)}</code></td>` +
    `<td><code>${esc(s.rule)}</code></td><td>${esc(s.comment ?? "")}</td>` +
    `<td>${s.branchProbability !== undefined ? pct(s.branchProbability) : ""}</td><td><code>${esc(s.action)}</code></td><td>${cause !== undefined ? esc(causeText(cause)) : ""}</td></tr>`
  );
}

function outcomeHTML(rep: TraceReport, i: number): string {
  const o = rep.result.outcomes[i];
  if (o === undefined) return "";
  const e = rep.explanations[i];
  const facts: string[] = [];
  if (o.dnat !== undefined) facts.push(`NAT: destination rewritten to <code>${esc(o.dnat)}</code>`);
  if (o.verdict === "accept") facts.push(`masquerade: ${esc(e?.masquerade ?? "no")}`);
  const ep = e?.endpoint;
  if (ep !== undefined)
    facts.push(
      `endpoint: ${esc([ep.pod !== undefined ? `pod ${ep.pod}` : ep.address, ep.nodeName !== undefined ? `on node ${ep.nodeName}` : "", ep.zone !== undefined ? `zone ${ep.zone}` : ""].filter((x) => x !== "").join(" "))} (EndpointSlice ${esc(ep.slice)})`,
    );
  if (o.affinity.length > 0) facts.push(`session affinity: records the client in ${esc(o.affinity.join(", "))}`);
  return (
    `<section class="outcome ${o.verdict}" data-verdict="${o.verdict}" data-probability="${o.probability}">` +
    `<h3>[${i + 1}] ${pct(o.probability)} ${esc(e?.summary ?? o.verdict)}</h3>` +
    (facts.length > 0 ? `<ul>${facts.map((f) => `<li>${f}</li>`).join("")}</ul>` : "") +
    `<table class="walk"><thead><tr><th>Hook</th><th>Chain</th><th>Rule</th><th>Comment</th><th>Branch</th><th>Action</th><th>Cause</th></tr></thead>` +
    `<tbody>${o.steps.map((s, j) => stepRow(s, rep.causes[i]?.[j])).join("")}</tbody></table></section>`
  );
}

/** The trace result section of the page. */
export function traceHTML(rep: TraceReport): string {
  const r = rep.resolved;
  const outcomes = rep.result.outcomes;
  return (
    `<section id="trace-result" class="trace">` +
    `<h2>Trace</h2><dl>` +
    `<dt>Source</dt><dd>${esc(describeSource(r))}</dd>` +
    `<dt>Destination</dt><dd>${esc(describeDestination(r))}</dd>` +
    `<dt>Node</dt><dd>${esc(r.node.metadata?.name ?? "")} (${rep.mode}, ${r.family})</dd>` +
    `<dt>Verdict</dt><dd class="verdict">${esc(renderVerdict(rep))}</dd></dl>` +
    `<p>${outcomes.length} possible outcome${outcomes.length === 1 ? "" : "s"}:</p>` +
    outcomes.map((_, i) => outcomeHTML(rep, i)).join("") +
    `</section>`
  );
}

/** An error of the trace (unknown pod, bad destination) in place of the result. */
export function traceErrorHTML(message: string): string {
  return `<section id="trace-result" class="trace error"><h2>Trace</h2><p class="error">${esc(message)}</p></section>`;
}
