/** client-go rest's role: client-node models as plain wire JSON. */
export { toPlain, asBody } from "./plain.ts";
