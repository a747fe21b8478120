/** cli-runtime printers/managedfields.go: `--show-managed-fields=false`, kubectl's default. */

/** The object without metadata.managedFields, as kubectl prints it with -o json|yaml. */
export function withoutManagedFields<T>(obj: T): T {
  const o = obj as { metadata?: Record<string, unknown> } | null;
  if (o === null || typeof o !== "object" || o.metadata === undefined || !("managedFields" in o.metadata)) return obj;
  const { managedFields: _drop, ...metadata } = o.metadata;
  return { ...o, metadata } as T;
}
