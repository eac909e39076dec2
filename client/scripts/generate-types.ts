import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

import { OPENAPI_DOCUMENT } from '../../shared/routes';

/** Where the document's types go (relative to the repository root, as OPENAPI_DOCUMENT is). */
export const SCHEMA_FILE = 'client/src/schema.ts';

const HEADER = `/**
 * Generated from ${OPENAPI_DOCUMENT} by \`npm run client:types\` (openapi-typescript). Do not edit:
 * change the route table, regenerate the document (\`npm run openapi\`), then these types.
 */

`;

/**
 * The TypeScript types of an OpenAPI document, as the client imports them. One function for the
 * script that writes them and the test that checks the committed file is still what it gives.
 */
export const generateTypes = async (document: unknown): Promise<string> =>
  HEADER + astToString(await openapiTS(document as OpenAPI3));
