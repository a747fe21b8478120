/**
 * Compile errors worded as cel-go's common.Errors.ToDisplayString words them
 * ("ERROR: <input>:1:1: undeclared reference to 'x' (in container '')" and the source line with a
 * caret under the column), from the interpreter's own messages for the same faults.
 */

const binaryOperators: Record<string, string> = {
  "+": "_+_",
  "-": "_-_",
  "*": "_*_",
  "/": "_/_",
  "%": "_%_",
  "==": "_==_",
  "!=": "_!=_",
  "<": "_<_",
  "<=": "_<=_",
  ">": "_>_",
  ">=": "_>=_",
  in: "@in",
};

/** cel-go's wording of a runtime error (interpreter/attributes.go: `no such key: <key>`). */
export function celGoRuntimeMessage(message: string): string {
  const m = /^No such key: (.*)$/.exec(message);
  return m ? `no such key: ${m[1]}` : message;
}

/** cel-go's wording of one checker or parser message. */
export function celGoMessage(message: string, parse: boolean): string {
  let m = /^Unknown variable: (.+)$/.exec(message);
  if (m) return `undeclared reference to '${m[1]}' (in container '')`;
  m = /^No such key: (.+)$/.exec(message);
  if (m && !parse) return `undefined field '${m[1]}'`;
  m = /^found no matching overload for '(?:([\w.<>, ]+)\.)?(\w+)\((.*)\)'$/.exec(message);
  if (m) return `found no matching overload for '${m[2]}' applied to '${m[1] ?? ""}(${m[3]})'`;
  m = /^no such overload: (\S+) (\S+) (\S+)$/.exec(message);
  if (m && binaryOperators[m[2]!]) return `found no matching overload for '${binaryOperators[m[2]!]}' applied to '(${m[1]}, ${m[3]})'`;
  return parse ? `Syntax error: ${message}` : message;
}

/** The display of one error at `offset` of `source`, as cel-go's ToDisplayString. */
export function displayError(source: string, offset: number, message: string): string {
  const before = source.slice(0, offset);
  const line = before.split("\n").length;
  const col = offset - (before.lastIndexOf("\n") + 1);
  const text = source.split("\n")[line - 1] ?? "";
  return `ERROR: <input>:${line}:${col + 1}: ${message}\n | ${text}\n | ${".".repeat(col)}^`;
}

type Range = { start: number; end: number };

/**
 * Where cel-go places a checker error: a field selection at its `.` (the parser's Select node
 * takes the operator token's position), a binary operator at the operator; cel-js gives the start
 * of the field name or of the whole expression.
 */
function celGoOffset(source: string, raw: string, start: number, node: { op?: string; args?: unknown } | undefined): number {
  if (/^No such key: /.test(raw)) {
    let i = start - 1;
    while (i > 0 && /\s/.test(source[i]!)) i--;
    return source[i] === "." ? i : start;
  }
  const args = node?.args as Range[] | undefined;
  if (node?.op !== undefined && binaryOperators[node.op] && Array.isArray(args) && args.length === 2) {
    const at = source.indexOf(node.op, args[0]!.end);
    if (at >= 0 && at < args[1]!.start) return at;
  }
  return start;
}

type CallNode = { op?: string; args?: unknown; range?: Range };

/**
 * cel-go's error for a call of a function no library of the environment declares (checker.go
 * checkCall: `undeclared reference to 'f' (in container '')`, at the call's opening parenthesis,
 * where the parser places a call), or undefined when `e` is not one; cel-js words it as a missing
 * overload.
 */
export function undeclaredFunction(source: string, e: unknown, declared: ReadonlySet<string>): string | undefined {
  const err = e as { code?: string; node?: CallNode };
  const node = err.node;
  if (err.code !== "no_matching_overload" || (node?.op !== "call" && node?.op !== "rcall")) return undefined;
  const args = node.args as [string, ...unknown[]];
  const name = args[0];
  if (declared.has(name)) return undefined;
  const from = node.op === "rcall" ? ((args[1] as { range?: Range }).range?.end ?? 0) : (node.range?.start ?? 0);
  const open = source.indexOf("(", source.indexOf(name, from) + name.length);
  return displayError(source, Math.max(open, 0), `undeclared reference to '${name}' (in container '')`);
}

/** The display of an interpreter error (which carries its source range) in cel-go's form. */
export function toDisplayString(source: string, e: unknown, parse: boolean): string {
  const err = e as { message?: string; range?: { start: number }; node?: { range?: { start: number }; op?: string; args?: unknown } };
  const raw = (err.message ?? String(e)).split("\n")[0]!;
  const start = err.range?.start ?? err.node?.range?.start ?? 0;
  const offset = parse ? start : celGoOffset(source, raw, start, err.node);
  return displayError(source, offset, celGoMessage(raw, parse));
}
