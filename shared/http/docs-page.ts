import { createHash } from 'node:crypto';
import { CONSOLE_HTML, CONSOLE_SCRIPT } from './docs-console';
import type { HttpResult } from './responses';

/**
 * `GET /docs`: the OpenAPI document (`GET /openapi.json`) rendered by Redoc's standalone script,
 * served by the API itself (`GET /docs/redoc.standalone.js`: nothing comes from a CDN, it works
 * offline), under a getting-started walk-through that mirrors the README's. Choices and sizes:
 * docs/decisions.md, Docs.
 *
 * Both URLs are relative to the page, so the page works under a custom domain's base path too.
 */

/**
 * Changes whenever the vendored script does (test/unit/docs-page.test.ts checks it is the start
 * of the file's SHA-256): the script is cached for a year, so a new version needs a new URL.
 */
export const RENDERER_VERSION = 'efd8609cba14';
const RENDERER_URL = `docs/redoc.standalone.js?v=${RENDERER_VERSION}`;
const DOCUMENT_URL = 'openapi.json';

/** The one stylesheet of the page, inline: its hash is in the policy, nothing else inline is. */
const STYLE = `
body { margin: 0; font: 15px/1.55 Roboto, system-ui, -apple-system, "Segoe UI", sans-serif; color: #333; }
.intro { position: relative; z-index: 1; padding: 32px 40px 24px; background: #fafafa; border-bottom: 1px solid #e4e7eb; }
.intro > * { max-width: 980px; }
.intro h1 { margin: 0 0 8px; font: 600 28px/1.3 Montserrat, system-ui, sans-serif; color: #32329f; }
.intro h2 { margin: 28px 0 8px; font: 600 20px/1.3 Montserrat, system-ui, sans-serif; }
.intro ol { padding-left: 22px; }
.intro li { margin: 14px 0; }
.intro li > p { margin: 0 0 6px; }
.intro code { font: 13px/1.5 Menlo, Consolas, "Courier New", monospace; background: #eef0f3; padding: 1px 4px; border-radius: 3px; }
.intro pre { margin: 0; padding: 12px 16px; overflow-x: auto; background: #263238; color: #e6edf0; border-radius: 4px; }
.intro pre code { background: none; padding: 0; color: inherit; }
.intro a { color: #32329f; }
.try { display: grid; grid-template-columns: 9em minmax(0, 1fr); gap: 8px 12px; align-items: center; margin: 12px 0; }
.try input, .try select, .try textarea { font: 13px/1.5 Menlo, Consolas, "Courier New", monospace; padding: 4px 6px; border: 1px solid #c5cad3; border-radius: 3px; }
.try button { justify-self: start; padding: 5px 16px; font: inherit; color: #fff; background: #32329f; border: 0; border-radius: 3px; cursor: pointer; }
.try button:disabled { background: #9a9ab8; cursor: default; }
.try output { grid-column: 2; color: #555; }
.try-line { display: flex; gap: 8px; }
.try-line input { flex: 1; }
#try-response { min-height: 3em; white-space: pre-wrap; word-break: break-word; }
`;

const sha256Source = (text: string): string =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The inline styles the renderer itself inserts, pinned by hash instead of allowing any inline
 * style ('unsafe-inline'): the empty <style> elements styled-components fills through the CSSOM,
 * and the one stylesheet Redoc 2.5.4 injects as text. A new Redoc may need new hashes: the browser
 * test (test/browser/docs-page.test.ts) fails on any violation, and its message names the hash.
 */
const RENDERER_STYLE_HASHES = [
  "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='",
  "'sha256-QMIg+bpjm3JdElJ388KYke01izlUW0UoNOeKjpMxdgc='",
];

/**
 * Only this origin: scripts, the document and styles come from the API (styles also from the
 * pinned inline hashes); images also as `data:` (the renderer's inline SVG icons, and the empty
 * icon that keeps browsers from asking for a /favicon.ico the API does not have). No plugins, no
 * <base>, no form posts, no framing.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  `script-src 'self' ${sha256Source(CONSOLE_SCRIPT)}`,
  // Redoc's search index runs in a worker it makes from a blob of its own script.
  'worker-src blob:',
  `style-src 'self' ${[...RENDERER_STYLE_HASHES, sha256Source(STYLE)].join(' ')}`,
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers every docs response carries. */
export const DOCS_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** One step: a sentence (HTML) and its commands (text, escaped here). */
const step = (what: string, commands: string): string =>
  `<li><p>${what}</p><pre><code>${escapeHtml(commands)}</code></pre></li>`;

/** The README's curl walk-through, shortened to the first calls, against this very API. */
const gettingStarted = (base: string): string =>
  [
    step(
      'Get a client. An operator creates it with the CLI and hands you its <code>clientId</code> and <code>apiToken</code> (shown only that once):',
      `npm run --silent helpdesk -- client create --name acme
# {"clientId":"019a…","apiToken":"MDE5Y…"}
CLIENT_ID=…; API_TOKEN=…`,
    ),
    step(
      'Exchange the apiToken for an access token (valid 3600 s). Every other call sends it with the <code>clientId</code>:',
      `curl -s -H "Authorization: Basic $API_TOKEN" \\
  '${base}/oauth/token?grant_type=client_credentials'
# {"access_token":"…","token_type":"bearer","expires_in":3600,"scope":"read write"}
TOKEN=…
AUTH=(-H "Authorization: Bearer $TOKEN" -H "clientId: $CLIENT_ID")
J=(-H 'Content-Type: application/json')`,
    ),
    step(
      'Create a customer:',
      `curl -s "\${AUTH[@]}" "\${J[@]}" \\
  -d '{"name":"Ada Lovelace","email":"ada@example.com","language":"it","state":"GB"}' \\
  ${base}/customer/insert
# {"id":"019a…"}
CUSTOMER=…`,
    ),
    step(
      'List customers (25 a page, newest first; follow <code>nextQuery</code>), or search one field:',
      `curl -s "\${AUTH[@]}" ${base}/customer/list
# {"customer":{"totalRecords":1,"recordsPerPage":25,"previousQuery":null,"nextQuery":null,"records":[…]}}
curl -s "\${AUTH[@]}" '${base}/customer/list?email=ada@example.com'`,
    ),
    step(
      'Open a ticket for that customer. An <code>Idempotency-Key</code> makes a retry replay the first answer instead of opening a second ticket:',
      `curl -s "\${AUTH[@]}" "\${J[@]}" -H 'Idempotency-Key: order-4711' -d '{
  "subject":"Printer on fire","description":"It is on fire.","openedBy":{"id":"'$CUSTOMER'"},
  "tags":["hardware"]
}' ${base}/ticket/insert             # 201 {"id":"…"}
TICKET=…`,
    ),
    step(
      'Reply. Without <code>replyFromOperator</code> the reply is the customer’s; with <code>"replyFromOperator":{"id":"&lt;agent id&gt;"}</code> an agent’s (then the customer must answer next):',
      `curl -s "\${AUTH[@]}" "\${J[@]}" -X PUT -d '{"text":"Any news?"}' \\
  ${base}/ticket/reply/$TICKET       # {"id": <reply id>}
curl -s "\${AUTH[@]}" ${base}/ticket/$TICKET/replies`,
    ),
  ].join('\n');

/** The page; `baseUrl` is the API's as the client called it (the walk-through's commands use it). */
export const docsPageHtml = (baseUrl: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Help-desk API reference</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<section class="intro">
<h1>Help-desk API</h1>
<p>A Deskero-compatible help-desk: tickets with replies, notes and attachments, customers, agents
and lookups, as JSON over HTTPS. Every route but the token exchange and these pages needs
<code>Authorization: Bearer &lt;access_token&gt;</code> and <code>clientId: &lt;clientId&gt;</code>;
every error is <code>application/problem+json</code>. The reference below is rendered from
<a href="${DOCUMENT_URL}">${DOCUMENT_URL}</a> (OpenAPI 3.1).</p>
<h2>Getting started</h2>
<ol>
${gettingStarted(baseUrl)}
</ol>
${CONSOLE_HTML}
</section>
<redoc spec-url="${DOCUMENT_URL}" expand-responses="200,201" required-props-first="true"></redoc>
<script src="${RENDERER_URL}"></script>
<script>${CONSOLE_SCRIPT}</script>
</body>
</html>
`;

export const docsPage = (baseUrl: string): HttpResult => ({
  statusCode: 200,
  headers: {
    ...DOCS_HEADERS,
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': DOCS_CSP,
    // Small, and it names the renderer's current version: always revalidated.
    'cache-control': 'no-cache',
  },
  body: docsPageHtml(baseUrl),
});
