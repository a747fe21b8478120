/** @servicenet/controller-manager: an API client of the servicenet apiserver; it talks to it over HTTP only. */
export const componentName = "controller-manager" as const;
