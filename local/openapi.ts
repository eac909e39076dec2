import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from '../shared/http/openapi';
import { OPENAPI_DOCUMENT } from '../shared/routes';
import { POSTMAN_FILE, postmanCollection } from './postman';
import { README_FILE, readmeText } from './readme-routes';
import { TICKET_FIELDS_FILE, ticketFieldsText } from './view-fields';

/**
 * `npm run openapi`: writes the OpenAPI document generated from the route table and the schemas
 * to docs/openapi.json, which `GET /openapi.json` serves as a file next to its bundle (functions/openapi.ts) and
 * which test/unit/openapi.test.ts checks is up to date, and the ticket view's field list
 * generated from its response schema (local/view-fields.ts), and the README's route table
 * (local/readme-routes.ts), and the Postman collection of the document (local/postman.ts).
 * `--check` only compares.
 */
export const OPENAPI_FILE = fileURLToPath(new URL(`../${OPENAPI_DOCUMENT}`, import.meta.url));

/** The file's exact text: two-space JSON and a final newline (Biome leaves the file alone). */
export const openApiText = (): string => `${JSON.stringify(openApiDocument(), null, 2)}\n`;

/** The collection's exact text, like the document's. */
export const postmanText = (): string => `${JSON.stringify(postmanCollection(openApiDocument()), null, 2)}\n`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const files = [
    { file: OPENAPI_FILE, text: openApiText() },
    { file: TICKET_FIELDS_FILE, text: ticketFieldsText() },
    { file: README_FILE, text: readmeText(openApiDocument()) },
    { file: POSTMAN_FILE, text: postmanText() },
  ];
  for (const { file, text } of files) {
    const name = relative(process.cwd(), file);
    if (process.argv.includes('--check')) {
      if (readFileSync(file, 'utf8') !== text) {
        console.error(`${name} is out of date: run \`npm run openapi\`.`);
        process.exitCode = 1;
      }
    } else {
      writeFileSync(file, text);
      console.log(`wrote ${name} (${Buffer.byteLength(text)} bytes)`);
    }
  }
}
