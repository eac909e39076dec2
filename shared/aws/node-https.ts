/**
 * `node:https` for bundles, taken from the runtime's CommonJS module, for the reason
 * shared/aws/node-http.ts gives (its ESM facade costs a cold start ~5 ms more than the module).
 */
const https = process.getBuiltinModule('node:https');

export default https;
export const { Agent, request } = https;
