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

/** The display of an interpreter error (which carries its source range) in cel-go's form. */
export function toDisplayString(source: string, e: unknown, parse: boolean): string {
  const err = e as { message?: string; range?: { start: number }; node?: { range?: { start: number } } };
  const raw = (err.message ?? String(e)).split("\n")[0]!;
  const start = err.range?.start ?? err.node?.range?.start ?? 0;
  return displayError(source, start, celGoMessage(raw, parse));
}
