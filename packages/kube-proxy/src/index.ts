/** @servicenet/kube-proxy: an API client of the servicenet apiserver; it talks to it over HTTP only. */
export const componentName = "kube-proxy" as const;
