/**
 * Field documentation of core/v1 ConfigMap and ConfigMapList (doc comments of k8s.io/api/core/v1
 * types.go, as types_swagger_doc_generated.go has them), for `kubectl explain configmap`.
 */
import { typeMetaDocs, type FieldDoc } from "./service-descriptions.ts";

const metadataDoc = "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

export const configMapDocs: Readonly<Record<string, Readonly<Record<string, FieldDoc>>>> = {
  "io.k8s.api.core.v1.ConfigMap": {
    "": { description: "ConfigMap holds configuration data for pods to consume." },
    ...typeMetaDocs,
    metadata: { description: `Standard object's metadata. More info: ${metadataDoc}` },
    immutable: {
      description:
        "Immutable, if set to true, ensures that data stored in the ConfigMap cannot be updated (only object metadata can be modified). If not set to true, the field can be modified at any time. Defaulted to nil.",
    },
    data: {
      description:
        "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.",
    },
    binaryData: {
      description:
        "BinaryData contains the binary data. Each key must consist of alphanumeric characters, '-', '_' or '.'. BinaryData can contain byte sequences that are not in the UTF-8 range. The keys stored in BinaryData must not overlap with the ones in the Data field, this is enforced during validation process. Using this field will require 1.10+ apiserver and kubelet. Note: BinaryData keys are not currently propagated to container env vars via ConfigMapKeyRef or ConfigMapRef env sources; only Data keys are used.",
    },
  },
  "io.k8s.api.core.v1.ConfigMapList": {
    "": { description: "ConfigMapList is a resource containing a list of ConfigMap objects." },
    ...typeMetaDocs,
    metadata: { description: `More info: ${metadataDoc}` },
    items: { description: "Items is the list of ConfigMaps." },
  },
};
