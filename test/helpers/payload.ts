import type { ApiResponse } from './api';

/** Lambda refuses a synchronous response payload larger than this (API Gateway then answers 5xx). */
export const LAMBDA_RESPONSE_LIMIT = 6_000_000;

/**
 * The size of the payload Lambda would send back for a JSON response, as its runtime serialises
 * it: `{statusCode, headers, body}` with the body as a JSON string inside JSON (so every `"`,
 * `\` and escape in the body costs again). The parsed body re-serialises to the exact text the
 * handler produced (JSON.stringify of JSON.parse of JSON.stringify output is the identity).
 */
export const lambdaPayloadBytes = (res: ApiResponse): number =>
  Buffer.byteLength(
    JSON.stringify({ statusCode: res.status, headers: res.headers, body: JSON.stringify(res.body) }),
    'utf8',
  );
