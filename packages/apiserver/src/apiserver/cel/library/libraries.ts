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
