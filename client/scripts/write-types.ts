/** `npm run client:types`: regenerates client/src/schema.ts from docs/openapi.json. */
import { readFileSync, writeFileSync } from 'node:fs';
import { OPENAPI_DOCUMENT } from '../../shared/routes';
import { generateTypes, SCHEMA_FILE } from './generate-types';

const document: unknown = JSON.parse(readFileSync(OPENAPI_DOCUMENT, 'utf8'));
writeFileSync(SCHEMA_FILE, await generateTypes(document));
console.log(`Wrote ${SCHEMA_FILE} from ${OPENAPI_DOCUMENT}`);
