import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalServer, startServer } from '../../local/server';
import { REDOC_FILE, routes } from '../../shared/routes';

/**
 * The API reference in a real browser: Debian's Chromium (never a downloaded one), headless,
 * driven by playwright-core against the local server. The page must render every operation of
 * the route table without a console error (a Content-Security-Policy violation is one) and
 * without a request leaving the API's origin; a screenshot lands in test-results/.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const root = new URL('../../', import.meta.url);
const OUTPUT_DIR = fileURLToPath(new URL('test-results/', root));
const DOCUMENT = fileURLToPath(new URL('docs/openapi.json', root));

let server: LocalServer;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No Chromium at ${CHROMIUM}: apt-get install chromium chromium-driver (.ci/run does)`);
  }
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

describe('GET /docs in Chromium', () => {
  it('renders every operation of the route table, with no console error and nothing fetched elsewhere', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1800 } });
    const { problems, requested } = watch(page);
    // GET /openapi.json comes with the openapi branch; until its route is in the table, the
    // document its generator writes is answered here, at the same address.
    if (!routes.some((r) => r.method === 'GET' && r.path === '/openapi.json')) {
      await page.route(`${server.url}/openapi.json`, (route) =>
        route.fulfill({ status: 200, contentType: 'application/json', body: readFileSync(DOCUMENT) }),
      );
    }

    const response = await page.goto(`${server.url}/docs`, { waitUntil: 'networkidle' });
    expect(response?.status()).toBe(200);
    await page.waitForSelector('[data-section-id^="operation/"]', { timeout: 20_000 });

    await expect(page.locator('section.intro h2').textContent()).resolves.toBe('Getting started');
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
    expect(requested.filter((url) => !url.startsWith(`${server.url}/`) && !url.startsWith('data:'))).toEqual(
      [],
    );
  });
});

describe('GET /docs over HTTP', () => {
  it('answers HTML under a policy that allows only this origin', async () => {
    const res = await fetch(`${server.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const policy = res.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/^default-src 'self'; script-src 'self'; /);
    expect(policy).toContain("frame-ancestors 'none'");
    // No other origin, no scheme but data: images, no inline script or style beyond pinned hashes.
    expect(policy).not.toMatch(/https?:|\*|'unsafe-|blob:/);
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
