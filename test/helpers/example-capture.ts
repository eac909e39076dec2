import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { type Exchange, exchangeKey, preferred } from '../../local/examples';
import type { LocalRequest } from '../../local/invoke';
import type { Route } from '../../shared/routes';

const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json\b/;

const headerOf = (headers: LocalRequest['headers'], name: string): string | undefined => {
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2)
      if (String(headers[i]).toLowerCase() === name) return String(headers[i + 1]);
    return undefined;
  }
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  return entry ? String(entry[1]) : undefined;
};

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
  const kept = new Map<string, Exchange>();
  return {
    record(route: Route, request: LocalRequest, result: APIGatewayProxyStructuredResultV2): void {
      if (headerOf(request.headers, 'helpdesk-compat') === 'deskero') return;
      const contentType = String(result.headers?.['content-type'] ?? '');
      if (!JSON_MEDIA.test(contentType) || result.isBase64Encoded || route.operationId === 'openapi') return;
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
      const key = exchangeKey(exchange);
      try {
        if (preferred(exchange, kept.get(key))) kept.set(key, exchange);
      } catch {
        // Too deep to weigh (a test's pathological body): not an example anyway.
      }
    },
    flush(): void {
      if (kept.size === 0) return;
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${process.pid}-${randomUUID()}.json`), JSON.stringify([...kept.values()]));
      kept.clear();
    },
  };
};
