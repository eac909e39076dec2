import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { LimitExceeded } from '../store/errors';

/**
 * JSON bodies of customers, agents and lookups are small; 1 MiB leaves room for long memos
 * while keeping every record far below DynamoDB's 400 KB item limit after validation.
 * Attachment routes will raise it per route when documents arrive.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

export const bodyLimit = (max = MAX_BODY_BYTES): MiddlewareObj<APIGatewayProxyEventV2> => ({
  before: ({ event }) => {
    if (!event.body) return;
    const bytes = event.isBase64Encoded
      ? Math.floor((event.body.length * 3) / 4)
      : Buffer.byteLength(event.body, 'utf8');
    if (bytes > max) {
      throw new LimitExceeded(`The body must be at most ${max} bytes.`);
    }
  },
});
