/** Parsed component versions (k8s.io/apimachinery/pkg/util/version). */
export { Version } from "./version.ts";
