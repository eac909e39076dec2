import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { headerPairs } from '../../local/event';
import { type Exchange, preferredExchanges } from '../../local/examples';
import type { LocalRequest } from '../../local/invoke';
import { JSON_MEDIA } from '../../shared/http/openapi-examples';
import type { Route } from '../../shared/routes';

/** One request header (names compared in lower case). */
const headerOf = (request: LocalRequest, name: string): string | undefined =>
  headerPairs(request.headers).find(([key]) => key.toLowerCase() === name)?.[1];

const parsed = (text: string | undefined): unknown => {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * With `CAPTURE_EXAMPLES=<dir>` (local/examples.ts, `npm run examples`): keeps this test process's
 * preferred exchange per operation and status, and per problem type, of the JSON answers the
 * contract validator saw valid, and writes them to `<dir>` when the file ends. Answers under the
 * `deskero` profile are left out: the document's examples show the standard shapes. So are
 * requests with members their schema does not name (`clean` says: fuzzing tests send such
 * bodies, which the server takes, ignoring the rest).
 */
export const exampleCapture = (dir: string, clean: (route: Route, body: unknown) => boolean) => {
  let kept = preferredExchanges();
  return {
    record(route: Route, request: LocalRequest, result: APIGatewayProxyStructuredResultV2): void {
      if (headerOf(request, 'helpdesk-compat') === 'deskero') return;
      const mediaType =
        String(result.headers?.['content-type'] ?? '')
          .split(';')[0]
          ?.trim() ?? '';
      if (!JSON_MEDIA.test(mediaType) || result.isBase64Encoded || route.operationId === 'openapi') return;
      const response = parsed(result.body);
      if (response === undefined) return;
      const status = result.statusCode ?? 200;
      const problemType = status >= 400 ? (response as { type?: unknown }).type : undefined;
      // A problem's request is not shown (only its answer), and need not be read.
      const sent = route.request.body && status < 400 ? parsed(request.body?.toString('utf8')) : undefined;
      if (sent !== undefined && !clean(route, sent)) return;
      // Its query, but a cursor (opaque, tied to the tenant and the page it was taken on).
      const query =
        status < 400
          ? Object.fromEntries(
              [...new URLSearchParams(request.rawUrl.split('?')[1] ?? '')].filter(
                ([name]) => name !== 'cursor',
              ),
            )
          : {};
      const exchange: Exchange = {
        operationId: route.operationId,
        status,
        ...(typeof problemType === 'string' ? { problemType } : {}),
        ...(Object.keys(query).length > 0 ? { query } : {}),
        ...(sent === undefined ? {} : { request: sent }),
        response,
      };
      try {
        kept.offer(exchange);
      } catch {
        // Too deep to weigh (a test's pathological body): not an example anyway.
      }
    },
    flush(): void {
      const exchanges = kept.kept();
      if (exchanges.length === 0) return;
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${process.pid}-${randomUUID()}.json`), JSON.stringify(exchanges));
      kept = preferredExchanges();
    },
  };
};
