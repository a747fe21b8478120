/**
 * Actions and reactors (upstream: `Action` in `client-go/testing/actions.go`, `Fake.PrependReactor`
 * and `ReactionFunc` in `client-go/testing/fake.go`): every request the fake apiserver serves is
 * recorded as an Action, and a reactor can answer it instead of the object tracker.
 */
import type { ResourceInfo } from "./resources.ts";

export type Verb = "get" | "list" | "watch" | "create" | "update" | "patch" | "delete";

export interface Action {
  verb: Verb;
  /** The HTTP method and path as sent, for assertions about the wire. */
  method: string;
  path: string;
  query: URLSearchParams;
  resource: ResourceInfo;
  namespace?: string | undefined;
  name?: string | undefined;
  subresource?: string | undefined;
  /** The decoded request body of a write. */
  body?: unknown;
  /** The User-Agent header, whose first segment a real apiserver records as a write's field manager. */
  userAgent?: string | undefined;
}

/**
 * What a reactor answers: an HTTP status and JSON body, or, for a watch, the events to send
 * before the stream ends (an ERROR event with a 410 Status makes an informer relist).
 */
export type Reaction = { status: number; body: unknown } | { events: readonly { type: string; object: unknown }[] };

/** Returns a Reaction to handle the action, or undefined to pass it down the chain. */
export type Reactor = (action: Action) => Reaction | undefined;

export interface ReactorEntry {
  verb: Verb | "*";
  /** Plural resource name or `name.group`, or "*". */
  resource: string;
  react: Reactor;
}

/** Whether an entry applies to an action (upstream: `SimpleReactor.Handles`). */
export function handles(e: ReactorEntry, a: Action): boolean {
  if (e.verb !== "*" && e.verb !== a.verb) return false;
  if (e.resource === "*") return true;
  const gr = a.resource.group === "" ? a.resource.name : `${a.resource.name}.${a.resource.group}`;
  return e.resource === gr || e.resource === a.resource.name;
}

/** Wraps a reactor so it answers at most once, then passes every later action on. */
export function once(react: Reactor): Reactor {
  let used = false;
  return (a) => {
    if (used) return undefined;
    const r = react(a);
    if (r !== undefined) used = true;
    return r;
  };
}
