import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from '../shared/http/openapi';

/**
 * `npm run openapi`: writes the OpenAPI document generated from the route table and the schemas
 * to docs/openapi.json, which `GET /openapi.json` serves (functions/openapi.ts imports it) and
 * which test/unit/openapi.test.ts checks is up to date. `--check` only compares.
 */
export const OPENAPI_FILE = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));

/** The file's exact text: two-space JSON and a final newline (Biome leaves the file alone). */
export const openApiText = (): string => `${JSON.stringify(openApiDocument(), null, 2)}\n`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = openApiText();
  if (process.argv.includes('--check')) {
    if (readFileSync(OPENAPI_FILE, 'utf8') !== text) {
      console.error('docs/openapi.json is out of date: run `npm run openapi`.');
      process.exit(1);
    }
  } else {
    writeFileSync(OPENAPI_FILE, text);
    console.log(`wrote docs/openapi.json (${Buffer.byteLength(text)} bytes)`);
  }
}
