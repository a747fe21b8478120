/**
 * Field documentation of core/v1 Secret, ServiceAccount, their lists and the references a
 * ServiceAccount holds (doc comments of k8s.io/api/core/v1 types.go, as
 * types_swagger_doc_generated.go has them), for `kubectl explain secret|sa`.
 */
import { typeMetaDocs, type FieldDoc } from "./service-descriptions.ts";

const metadataDoc =
  "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
const listMetadataDoc =
  "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

export const secretDocs: Readonly<Record<string, Readonly<Record<string, FieldDoc>>>> = {
  "io.k8s.api.core.v1.Secret": {
    "": {
      description:
        "Secret holds secret data of a certain type. The total bytes of the values in the Data field must be less than MaxSecretSize bytes.",
    },
    ...typeMetaDocs,
    metadata: { description: metadataDoc },
    immutable: {
      description:
        "Immutable, if set to true, ensures that data stored in the Secret cannot be updated (only object metadata can be modified). If not set to true, the field can be modified at any time. Defaulted to nil.",
    },
    data: {
      description:
        "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4",
    },
    stringData: {
      description:
        "stringData allows specifying non-binary secret data in string form. It is provided as a write-only input field for convenience. All keys and values are merged into the data field on write, overwriting any existing values. The stringData field is never output when reading from the API.",
    },
    type: {
      description:
        "Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types",
    },
  },
  "io.k8s.api.core.v1.SecretList": {
    "": { description: "SecretList is a list of Secret." },
    ...typeMetaDocs,
    metadata: { description: listMetadataDoc },
    items: { description: "Items is a list of secret objects. More info: https://kubernetes.io/docs/concepts/configuration/secret" },
  },
  "io.k8s.api.core.v1.ServiceAccount": {
    "": {
      description:
        "ServiceAccount binds together: * a name, understood by users, and perhaps by peripheral systems, for an identity * a principal that can be authenticated and authorized * a set of secrets",
    },
    ...typeMetaDocs,
    metadata: { description: metadataDoc },
    secrets: {
      description:
        'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use. Pods are only limited to this list if this service account has a "kubernetes.io/enforce-mountable-secrets" annotation set to "true". The "kubernetes.io/enforce-mountable-secrets" annotation is deprecated since v1.32. Prefer separate namespaces to isolate access to mounted secrets. This field should not be used to find auto-generated service account token secrets for use outside of pods. Instead, tokens can be requested directly using the TokenRequest API, or service account token secrets can be manually created. More info: https://kubernetes.io/docs/concepts/configuration/secret',
    },
    imagePullSecrets: {
      description:
        "ImagePullSecrets is a list of references to secrets in the same namespace to use for pulling any images in pods that reference this ServiceAccount. ImagePullSecrets are distinct from Secrets because Secrets can be mounted in the pod, but ImagePullSecrets are only accessed by the kubelet. More info: https://kubernetes.io/docs/concepts/containers/images/#specifying-imagepullsecrets-on-a-pod",
    },
    automountServiceAccountToken: {
      description:
        "AutomountServiceAccountToken indicates whether pods running as this service account should have an API token automatically mounted. Can be overridden at the pod level.",
    },
  },
  "io.k8s.api.core.v1.ServiceAccountList": {
    "": { description: "ServiceAccountList is a list of ServiceAccount objects" },
    ...typeMetaDocs,
    metadata: { description: listMetadataDoc },
    items: {
      description:
        "List of ServiceAccounts. More info: https://kubernetes.io/docs/tasks/configure-pod-container/configure-service-account/",
    },
  },
  "io.k8s.api.core.v1.LocalObjectReference": {
    "": {
      description: "LocalObjectReference contains enough information to let you locate the referenced object inside the same namespace.",
    },
    name: {
      description:
        "Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. Instances of this type with an empty value here are almost certainly wrong. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names",
    },
  },
  "io.k8s.api.core.v1.ObjectReference": {
    "": { description: "ObjectReference contains enough information to let you inspect or modify the referred object." },
    kind: {
      description:
        "Kind of the referent. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
    },
    namespace: {
      description: "Namespace of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces/",
    },
    name: {
      description: "Name of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names",
    },
    uid: { description: "UID of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#uids" },
    apiVersion: { description: "API version of the referent." },
    resourceVersion: {
      description:
        "Specific resourceVersion to which this reference is made, if any. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency",
    },
    fieldPath: {
      description:
        'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.',
    },
  },
};
