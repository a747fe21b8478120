/** Resource quantities (apimachinery/pkg/api/resource). */
export { parseQuantityMilli } from "./quantity.ts";
