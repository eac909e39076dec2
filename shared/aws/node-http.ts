/**
 * `node:http` for bundles, taken from the runtime's CommonJS module (infra/bundling.ts `alias`).
 * An ES import of `node:http` builds the module's ESM facade, which reads every export, the lazy
 * `WebSocket` and friends included, and so loads the whole fetch implementation: ~45 ms of every
 * cold start that imported it (Middy imports `STATUS_CODES` from it). `getBuiltinModule` hands
 * over the module itself. These are the names the bundled code imports; a missing one fails the
 * build, not a request.
 */
const http = process.getBuiltinModule('node:http');

export default http;
export const { Agent, ClientRequest, createServer, IncomingMessage, STATUS_CODES, request } = http;
