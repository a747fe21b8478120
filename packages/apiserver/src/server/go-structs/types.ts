/**
 * The notation of the Go struct tables: one entry per struct, package-qualified
 * (`core/v1.ServiceSpec`), holding its fields by JSON name in declaration order, each as
 * `"<Go type>"` or `"<Go type>,omitempty"` with the type resolved to what encoding/json sees
 * (named strings as `string`, struct types package-qualified, `*` for pointers, `[]` for slices,
 * `map[K]V` for maps). `kind` and `apiVersion` stand for the inlined TypeMeta.
 */
export type GoStructs = Readonly<Record<string, Readonly<Record<string, string>>>>;
