import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

/** Where the OpenAPI document lives and where its types go (both relative to the repository root). */
export const OPENAPI_DOCUMENT = 'docs/openapi.json';
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
