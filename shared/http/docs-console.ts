/**
 * The docs page's console ("Try it"): sign in with an apiToken, pick an operation of the
 * document, send it to this API and read the answer. The apiToken and the access token live in
 * the page's memory only (nothing stored, nothing sent anywhere but this API's own routes);
 * requests go to relative URLs, so a custom domain's base path stays. Inline, allowed by its hash
 * (docs-page.ts): no `'unsafe-inline'`, no extra request. Choices: docs/decisions.md, Docs.
 */
export const CONSOLE_HTML = `<h2 id="try-it">Try it</h2>
<p>Sign in with an <code>apiToken</code> (it stays in this page: nothing is stored), pick an
operation, send it to this API and see the answer. Path parameters are the <code>{…}</code> in
the path: replace them with ids.</p>
<form id="try-signin" class="try">
<label for="try-token">apiToken</label>
<input id="try-token" type="password" autocomplete="off" spellcheck="false" required>
<button type="submit">Sign in</button>
<output id="try-status" role="status">Not signed in.</output>
</form>
<form id="try-request" class="try">
<label for="try-operation">Operation</label>
<select id="try-operation"><option value="">Loading the operations…</option></select>
<label for="try-path">Request</label>
<span class="try-line"><select id="try-method" aria-label="Method"><option>GET</option><option>POST</option><option>PUT</option><option>DELETE</option></select><input id="try-path" value="customer/list" spellcheck="false" aria-label="Path and query"></span>
<label for="try-body">Body (JSON)</label>
<textarea id="try-body" rows="7" spellcheck="false"></textarea>
<label for="try-key">Idempotency-Key</label>
<input id="try-key" spellcheck="false" placeholder="optional: makes a retry safe">
<label for="try-if-match">If-Match</label>
<input id="try-if-match" spellcheck="false" placeholder="optional: an ETag, e.g. &quot;1&quot;">
<span></span><button id="try-send" type="submit" disabled>Send</button>
</form>
<pre id="try-response" aria-live="polite" aria-label="Answer"></pre>`;

export const CONSOLE_SCRIPT = `(() => {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const SHOWN = ['content-type', 'etag', 'location', 'x-request-id', 'idempotent-replayed', 'ratelimit-remaining', 'retry-after'];
  let session = null;
  const bodyless = (method) => method === 'GET' || method === 'DELETE';
  $('try-signin').addEventListener('submit', async (event) => {
    event.preventDefault();
    const apiToken = $('try-token').value.trim();
    let clientId = '';
    try { clientId = atob(apiToken).split(':')[0]; } catch { clientId = ''; }
    // credentials 'omit': a refused token must not open the browser's own Basic sign-in dialog.
    const res = await fetch('oauth/token?grant_type=client_credentials', {
      credentials: 'omit', headers: { authorization: 'Basic ' + apiToken },
    });
    const body = await res.json().catch(() => ({}));
    if (res.ok && body.access_token && clientId) {
      session = { clientId, accessToken: body.access_token };
      $('try-status').textContent = 'Signed in as client ' + clientId + ' (the access token lasts ' + body.expires_in + ' s).';
      $('try-send').disabled = false;
    } else {
      session = null;
      $('try-status').textContent = 'Not signed in: ' + res.status + ' ' + (body.detail || body.title || '');
      $('try-send').disabled = true;
    }
  });
  const operations = new Map();
  $('try-operation').addEventListener('change', () => {
    const op = operations.get($('try-operation').value);
    if (!op) return;
    $('try-method').value = op.method;
    $('try-path').value = op.path.slice(1);
    const example = op.body && op.body.example;
    $('try-body').value = bodyless(op.method) ? '' : example === undefined ? '{}' : JSON.stringify(example, null, 2);
  });
  fetch('openapi.json').then((res) => res.json()).then((doc) => {
    const select = $('try-operation');
    select.replaceChildren();
    const groups = new Map();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (op.security && op.security.length === 0) continue;
        if (path === '/oauth/token') continue;
        const key = method.toUpperCase() + ' ' + path;
        const json = op.requestBody && op.requestBody.content['application/json'];
        operations.set(key, { method: method.toUpperCase(), path, body: json });
        const tag = (op.tags && op.tags[0]) || 'Other';
        if (!groups.has(tag)) {
          const group = document.createElement('optgroup');
          group.label = tag;
          groups.set(tag, group);
          select.append(group);
        }
        const option = document.createElement('option');
        option.value = key;
        option.textContent = key + ' — ' + op.summary;
        groups.get(tag).append(option);
      }
    }
    select.value = 'GET /customer/list';
  }).catch(() => { $('try-operation').replaceChildren(new Option('The document could not be read', '')); });
  $('try-request').addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!session) return;
    const method = $('try-method').value;
    const headers = { authorization: 'Bearer ' + session.accessToken, clientid: session.clientId };
    const text = $('try-body').value.trim();
    if (text && !bodyless(method)) headers['content-type'] = 'application/json';
    if ($('try-key').value.trim()) headers['idempotency-key'] = $('try-key').value.trim();
    if ($('try-if-match').value.trim()) headers['if-match'] = $('try-if-match').value.trim();
    $('try-response').textContent = 'Sending…';
    const started = performance.now();
    try {
      const res = await fetch($('try-path').value.trim().replace(/^\\/+/, ''), {
        method, headers, credentials: 'omit', redirect: 'manual', body: text && !bodyless(method) ? text : undefined,
      });
      const raw = await res.text();
      let shown = raw;
      try { shown = JSON.stringify(JSON.parse(raw), null, 2); } catch { shown = raw; }
      const lines = SHOWN.filter((h) => res.headers.has(h)).map((h) => h + ': ' + res.headers.get(h));
      $('try-response').textContent = (res.type === 'opaqueredirect' ? '302 Found (a redirect to a short-lived address)' : res.status + ' ' + res.statusText) +
        ' in ' + Math.round(performance.now() - started) + ' ms\\n' + lines.join('\\n') + '\\n\\n' + shown;
    } catch (error) {
      $('try-response').textContent = 'The request failed: ' + error.message;
    }
  });
})();`;
