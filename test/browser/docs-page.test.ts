import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DynamoDbLocal, localDynamoClient, startDynamoDbLocal } from '../../local/dynamodb-local';
import { OPENAPI_FILE } from '../../local/openapi';
import { type LocalServer, startServer } from '../../local/server';
import { resetConfig } from '../../shared/config';
import { createClient } from '../../shared/domain/new-client';
import { REDOC_FILE, routes } from '../../shared/routes';
import { ensureTable } from '../../shared/store/create-table';

/**
 * The API reference in a real browser: Debian's Chromium (never a downloaded one), headless,
 * driven by playwright-core against the local server. The page must render every operation of
 * the route table without a console error (a Content-Security-Policy violation is one) and
 * without a request leaving the API's origin; a screenshot lands in test-results/.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const root = new URL('../../', import.meta.url);
const OUTPUT_DIR = fileURLToPath(new URL('test-results/', root));

let server: LocalServer;
let browser: Browser;
// The console's sign-in and requests need a store: a DynamoDB Local of this file's own.
let dynamo: DynamoDbLocal;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No Chromium at ${CHROMIUM}: apt-get install chromium chromium-driver (.ci/run does)`);
  }
  dynamo = await startDynamoDbLocal({ shortLived: true });
  const client = localDynamoClient(dynamo.endpoint);
  await ensureTable(client, 'helpdesk-docs-test');
  client.destroy();
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TABLE_NAME = 'helpdesk-docs-test';
  process.env.CURSOR_SECRET = 'docs-test-cursor-secret-0123456789abcdefgh';
  resetConfig();
  server = await startServer({ port: 0 });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await dynamo?.stop();
});

/** Everything the page reports as going wrong, and every address it asks for. */
const watch = (page: Page) => {
  const problems: string[] = [];
  const requested: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console.${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  page.on('request', (r) => requested.push(r.url()));
  return { problems, requested };
};

/** What the page asked of another origin: nothing but this server, data: images and its own blob: worker. */
const elsewhere = (requested: string[]) =>
  requested.filter(
    (url) =>
      !url.startsWith(`${server.url}/`) && !url.startsWith('data:') && !url.startsWith(`blob:${server.url}/`),
  );

describe('GET /docs in Chromium', () => {
  it('renders every operation of the route table, with no console error and nothing fetched elsewhere', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1800 } });
    const { problems, requested } = watch(page);
    // GET /openapi.json comes with the openapi branch; until its route is in the table, the
    // document its generator writes is answered here, at the same address.
    if (!routes.some((r) => r.method === 'GET' && r.path === '/openapi.json')) {
      await page.route(`${server.url}/openapi.json`, (route) =>
        route.fulfill({ status: 200, contentType: 'application/json', body: readFileSync(OPENAPI_FILE) }),
      );
    }

    const response = await page.goto(`${server.url}/docs`, { waitUntil: 'networkidle' });
    expect(response?.status()).toBe(200);
    await page.waitForSelector('[data-section-id^="operation/"]', { timeout: 20_000 });

    await expect(page.locator('section.intro h2').first().textContent()).resolves.toBe('Getting started');
    // The walk-through's commands name this very API.
    expect(await page.locator('section.intro').textContent()).toContain(`${server.url}/oauth/token`);

    const missing: string[] = [];
    for (const route of routes) {
      const section = page.locator(`[data-section-id="operation/${route.operationId}"]`);
      // biome-ignore lint/performance/useDomNodeTextContent: what is shown, as laid out, is the point
      const text = (await section.count()) === 1 ? await section.innerText() : '';
      if (!text.includes(route.summary) || !text.includes(route.path)) {
        missing.push(`${route.method} ${route.path} (${route.operationId})`);
      }
    }
    expect(missing).toEqual([]);

    mkdirSync(OUTPUT_DIR, { recursive: true });
    await page.screenshot({ path: `${OUTPUT_DIR}docs-page.png` });
    await page.close();

    expect(problems).toEqual([]);
    expect(elsewhere(requested)).toEqual([]);
  });
});

describe('the docs page console and search, in Chromium', () => {
  it('signs in with a client, sends a request from the page and shows its answer', {
    timeout: 60_000,
  }, async () => {
    const { apiToken, clientId } = await createClient('docs-demo');
    const page = await browser.newPage({ viewport: { width: 1440, height: 1800 } });
    const { problems, requested } = watch(page);
    await page.goto(`${server.url}/docs`, { waitUntil: 'networkidle' });
    // Nothing can be sent before signing in; a wrong token is refused, and says so.
    await expect(page.locator('#try-send').isDisabled()).resolves.toBe(true);
    await page.fill('#try-token', btoa(`${clientId}:wrong`));
    await page.click('#try-signin button');
    await page.locator('#try-status', { hasText: /^Not signed in: 401/ }).waitFor();
    await page.fill('#try-token', apiToken);
    await page.click('#try-signin button');
    await page.locator('#try-status', { hasText: /^Signed in as client / }).waitFor();

    await page.selectOption('#try-operation', 'POST /customer/insert');
    await expect(page.inputValue('#try-method')).resolves.toBe('POST');
    await expect(page.inputValue('#try-path')).resolves.toBe('customer/insert');
    await page.fill('#try-body', JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.com' }));
    await page.click('#try-send');
    await page.locator('#try-response', { hasText: /^\d{3} / }).waitFor();
    const created = (await page.textContent('#try-response')) ?? '';
    expect(created).toMatch(/^201 Created in \d+ ms\n/);
    expect(created).toMatch(/\netag: "1"\n/);
    const id = /"id": "([^"]+)"/.exec(created)?.[1];
    expect(created).toContain(`location: ${server.url}/customer/${id}`);

    await page.selectOption('#try-operation', 'GET /customer/list');
    await page.click('#try-send');
    await page.locator('#try-response', { hasText: /^200 OK/ }).waitFor();
    expect(await page.textContent('#try-response')).toContain('"email": "ada@example.com"');
    await page.close();
    // Only the refused sign-in, which the browser reports as a failed load.
    expect(problems).toEqual([
      `HTTP 401: ${server.url}/oauth/token?grant_type=client_credentials`,
      'console.error: Failed to load resource: the server responded with a status of 401 (Unauthorized)',
    ]);
    expect(elsewhere(requested)).toEqual([]);
  });

  it('finds operations by the words of their summary in the reference', { timeout: 60_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1800 } });
    const { problems } = watch(page);
    await page.goto(`${server.url}/docs`, { waitUntil: 'networkidle' });
    await page.waitForSelector('[data-section-id^="operation/"]', { timeout: 20_000 });
    await page.fill('input.search-input', 'unmerge');
    const results = page.locator('[data-role="search:results"] [role="menuitem"]');
    await results.filter({ hasText: 'Undo the merge of this ticket' }).waitFor({ timeout: 10_000 });
    // Both operations that name the word, nothing that does not.
    expect(await results.count()).toBe(2);
    await page.close();
    expect(problems).toEqual([]);
  });
});

describe('GET /docs over HTTP', () => {
  it('answers HTML under a policy that allows only this origin', async () => {
    const res = await fetch(`${server.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const policy = res.headers.get('content-security-policy') ?? '';
    // Inline script only by hash (the console), workers only from blobs (Redoc's search index).
    expect(policy).toMatch(/^default-src 'self'; script-src 'self' 'sha256-[\w+/=]{44}'; worker-src blob:; /);
    expect(policy).toContain("frame-ancestors 'none'");
    // No other origin, no scheme but data: images and blob: workers, no inline script or style beyond pinned hashes.
    expect(policy).not.toMatch(/https?:|\*|'unsafe-/);
    expect(policy.match(/blob:/g)).toHaveLength(1);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toMatch(/<script src="docs\/redoc\.standalone\.js\?v=[0-9a-f]{12}"><\/script>/);
  });

  it('serves the renderer gzip-compressed, cached for a year, revalidated by its ETag', async () => {
    const file = readFileSync(new URL(REDOC_FILE, root));
    const url = `${server.url}/docs/redoc.standalone.js?v=x`;
    const gzip = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.status).toBe(200);
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(Number(gzip.headers.get('content-length'))).toBeLessThan(file.length / 2);
    expect(gzip.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(gzip.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(gzip.headers.get('vary')).toBe('accept-encoding');
    // fetch undoes the gzip: the bytes are the vendored file's.
    expect(Buffer.from(await gzip.arrayBuffer()).equals(file)).toBe(true);

    const plain = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(Buffer.from(await plain.arrayBuffer()).equals(file)).toBe(true);

    const etag = gzip.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await fetch(url, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
  });
});
