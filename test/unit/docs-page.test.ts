import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOCS_CSP, docsPage, docsPageHtml, RENDERER_VERSION } from '../../shared/http/docs-page';
import { acceptsGzip, candidatesOf } from '../../shared/http/static-file';
import { REDOC_FILE, routes } from '../../shared/routes';

const renderer = readFileSync(new URL(`../../${REDOC_FILE}`, import.meta.url));

describe('the vendored renderer', () => {
  it('is the version the page asks for (a new file needs a new URL: it is cached for a year)', () => {
    expect(createHash('sha256').update(renderer).digest('hex').slice(0, 12)).toBe(RENDERER_VERSION);
  });

  it('fetches nothing from elsewhere (the CDN logo is patched out, vendor/redoc/README.md)', () => {
    // Booleans, not toContain: a failure would print the whole megabyte.
    const text = renderer.toString('utf8');
    expect(text.includes('cdn.redoc.ly')).toBe(false);
    expect(/fonts\.(googleapis|gstatic)\.com/.test(text)).toBe(false);
    // No source map comment: the map is not shipped, a browser's devtools would ask for it.
    expect(/\/\/# sourceMappingURL=\S*\s*$/.test(text)).toBe(false);
  });
});

describe('the docs page', () => {
  it('allows only its own origin, inline styles and the console script only by hash, workers only from blobs', () => {
    const directives = Object.fromEntries(
      DOCS_CSP.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)] as const),
    );
    expect(directives['default-src']).toEqual(["'self'"]);
    const console = /<script>([\s\S]*?)<\/script>/.exec(docsPageHtml('https://api.example.com'))?.[1] ?? '';
    expect(directives['script-src']).toEqual([
      "'self'",
      `'sha256-${createHash('sha256').update(console).digest('base64')}'`,
    ]);
    // Redoc's search index runs in a worker made from a blob of its own script.
    expect(directives['worker-src']).toEqual(['blob:']);
    expect(directives['style-src']?.[0]).toBe("'self'");
    for (const source of directives['style-src']?.slice(1) ?? [])
      expect(source).toMatch(/^'sha256-[\w+/=]{44}'$/);
    expect(directives['img-src']).toEqual(["'self'", 'data:']);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
  });

  it('pins the hash of its own stylesheet', () => {
    const style = /<style>([\s\S]*?)<\/style>/.exec(docsPageHtml('https://api.example.com'))?.[1] ?? '';
    const hash = `'sha256-${createHash('sha256').update(style).digest('base64')}'`;
    expect(DOCS_CSP).toContain(hash);
  });

  it('loads the document and the renderer by relative URLs (a custom domain may add a base path)', () => {
    const html = docsPageHtml('https://api.example.com/v1');
    expect(html).toContain('<redoc spec-url="openapi.json"');
    expect(html).toContain(`<script src="docs/redoc.standalone.js?v=${RENDERER_VERSION}"></script>`);
    expect(html).toContain('https://api.example.com/v1/oauth/token?grant_type=client_credentials');
    // One inline script (the console, pinned by hash above), no inline event handler.
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).not.toMatch(/\son\w+=/);
  });

  it('walks through the token exchange, a customer, a list, a ticket and a reply', () => {
    const html = docsPageHtml('https://h');
    const order = ['/oauth/token', '/customer/insert', '/customer/list', '/ticket/insert', '/ticket/reply/'];
    const positions = order.map((path) => html.indexOf(`https://h${path}`));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    // Each path of the walk-through is a route of the table.
    for (const path of ['/oauth/token', '/customer/insert', '/customer/list', '/ticket/insert']) {
      expect(routes.some((r) => r.path === path)).toBe(true);
    }
  });

  it('escapes the base URL it is called with', () => {
    const html = docsPageHtml('https://x"><script>alert(1)</script>');
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('answers HTML that is always revalidated', () => {
    expect(docsPage('https://h').headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      'content-security-policy': DOCS_CSP,
      'x-content-type-options': 'nosniff',
    });
  });
});

describe('static files', () => {
  it('looks next to the bundle first, then at the path in the repository', () => {
    expect(candidatesOf('vendor/redoc/x.js', 'file:///var/task/index.mjs').map((u) => u.pathname)).toEqual([
      '/var/task/x.js',
      '/vendor/redoc/x.js',
    ]);
    expect(candidatesOf('vendor/redoc/x.js', 'file:///repo/shared/http/static-file.ts')[1]?.pathname).toBe(
      '/repo/vendor/redoc/x.js',
    );
  });

  it.each([
    ['gzip', true],
    ['gzip, deflate, br', true],
    ['br;q=1.0, gzip;q=0.8', true],
    ['x-gzip', true],
    ['*', true],
    ['GZIP', true],
    [undefined, false],
    ['', false],
    ['identity', false],
    ['br', false],
    ['gzip;q=0', false],
    ['gzip;q=0.000', false],
    ['*;q=0.5, gzip;q=0', false],
    ['br, *;q=0', false],
  ] as const)('Accept-Encoding %j admits gzip: %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});
