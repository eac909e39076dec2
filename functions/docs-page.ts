import { apiHandler } from '../shared/http/api-handler';
import { docsPage } from '../shared/http/docs-page';

/** `GET /docs`: the API reference page (public). */
export const handler = apiHandler('docsPage', async ({ baseUrl }) => docsPage(baseUrl));
