/** k8s.io/apimachinery/pkg/util/duration. */
export { humanDuration, shortHumanDuration } from "./duration.ts";
