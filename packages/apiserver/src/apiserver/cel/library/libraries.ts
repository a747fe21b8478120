/**
 * The libraries every Kubernetes CEL environment has (k8s.io/apiserver/pkg/cel/library/libraries.go
 * and environment/base.go): lists, regex, URLs, authz and its selectors, IP and CIDR.
 */
import { cidrLibrary, ipLibrary } from "./ip.ts";
import type { Library } from "./library.ts";
import { authz, authzSelectors } from "./authz.ts";
import { lists } from "./lists.ts";
import { regex } from "./regex.ts";
import { urls } from "./urls.ts";

/** The Kubernetes libraries, in the order environment/base.go adds them. */
export const kubernetesLibraries: readonly Library[] = [urls, regex, lists, authz, authzSelectors, ipLibrary, cidrLibrary];

const withoutAuthzSelectors: readonly Library[] = kubernetesLibraries.filter((l) => l !== authzSelectors);

/**
 * The Kubernetes libraries for the server's feature gates: environment/base.go adds AuthzSelectors
 * only when AuthorizeWithSelectors is on, so without it `fieldSelector()` and `labelSelector()`
 * do not compile.
 */
export function kubernetesLibrariesFor(gates: { authorizeWithSelectors: boolean }): readonly Library[] {
  return gates.authorizeWithSelectors ? kubernetesLibraries : withoutAuthzSelectors;
}
