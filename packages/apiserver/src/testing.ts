/**
 * `@servicenet/apiserver/testing`: test-support data for other packages' suites, not part of the
 * server's API. Only plain data and pure functions, so that importing it loads none of the server.
 */
export {
  initIPFieldsOutcomes,
  initIPFieldsTables,
  type InitIPFieldsFamily,
  type InitIPFieldsIPs,
  type InitIPFieldsMode,
  type InitIPFieldsOutcome,
  type InitIPFieldsPolicy,
} from "./registry/core/service/storage/init-ip-fields-table.ts";
