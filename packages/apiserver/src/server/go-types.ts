/**
 * The Go types behind the served kinds, as far as encoding/json's error text names them: the
 * struct type of every object (by JSON path, list items as `[]`) and whether an integer field is
 * int32 or int64. Read from the Go struct tables (go-structs/), the one record of k8s.io/api's
 * types.go files.
 */
import { goRootType, struct } from "./go-structs/index.ts";

/** Fields of type metav1.Time/MicroTime, whose UnmarshalJSON reads a JSON string (or null) only. */
export const timeFields = new Set([
  "creationTimestamp",
  "deletionTimestamp",
  "time",
  "lastTransitionTime",
  "lastProbeTime",
  "lastHeartbeatTime",
  "firstTimestamp",
  "lastTimestamp",
  "eventTime",
  "lastObservedTime",
  "acquireTime",
  "renewTime",
  "startTime",
]);

/** The Go type names of one kind; undefined for kinds not tabled (no Go-typed checks for them). */
export interface GoTypes {
  /** The package-qualified struct type at `path` (`v1.ServicePort`), or undefined. */
  struct(path: string): string | undefined;
  /** `int32` or `int64` for the integer field at `path`. */
  int(path: string): "int32" | "int64";
  /** Whether the field at `path` is a `[]byte` or a `map[string][]byte` (base64 in JSON). */
  bytes(path: string): boolean;
}

/**
 * The Go type (as the tables spell it, `[]core/v1.ServicePort`) at a JSON path from struct `root`:
 * a `[]` step takes a slice's element; pointers are looked through as encoding/json does.
 */
function goTypeAt(root: string, path: string): string | undefined {
  let type = root;
  for (const step of path === "" ? [] : path.split(".")) {
    const [name = "", ...items] = step.split("[]");
    const fields = struct(type.replace(/^\*/, ""));
    const spec = fields?.[name];
    if (spec === undefined) return undefined;
    type = spec.split(",")[0] ?? "";
    for (let i = 0; i < items.length; i++) {
      if (!type.startsWith("[]")) return undefined;
      type = type.slice(2);
    }
  }
  return type.replace(/^\*/, "");
}

/** `v1.ServicePort` for `core/v1.ServicePort`: the package's last element, as Go's reflect names a type. */
const goName = (qualified: string): string => qualified.slice(qualified.lastIndexOf("/") + 1);

const goTypesByKind = new Map<string, GoTypes | undefined>();

/** The Go types of `apiVersion`/`kind` (`v1`, `networking.k8s.io/v1beta1`); one object per kind (go-decode keys its plans by it). */
export function goTypesOf(apiVersion: string, kind: string): GoTypes | undefined {
  const key = `${apiVersion}/${kind}`;
  if (goTypesByKind.has(key)) return goTypesByKind.get(key);
  const slash = apiVersion.lastIndexOf("/");
  const root = goRootType(slash < 0 ? "" : apiVersion.slice(0, slash), apiVersion.slice(slash + 1), kind);
  const types = root === undefined ? undefined : typesFrom(root);
  goTypesByKind.set(key, types);
  return types;
}

/**
 * The Go types from metav1.ObjectMeta down: what a custom resource's metadata is decoded into on
 * its own (apiextensions-apiserver pkg/apiserver/schema/objectmeta/coerce.go GetObjectMetaWithOptions).
 */
export const objectMetaGoTypes: GoTypes = typesFrom("meta/v1.ObjectMeta");

function typesFrom(root: string): GoTypes {
  return {
    struct: (path) => {
      const t = goTypeAt(root, path);
      return t !== undefined && struct(t) !== undefined ? goName(t) : undefined;
    },
    int: (path) => (goTypeAt(root, path) === "int64" ? "int64" : "int32"),
    bytes: (path) => /^(map\[string\])?\[\]byte$/.test(goTypeAt(root, path) ?? ""),
  };
}
