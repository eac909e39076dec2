import { docsPage } from '../shared/http/docs-page';
import { publicHandler } from '../shared/http/public-handler';

/** `GET /docs`: the API reference page (public). */
export const handler = publicHandler('docsPage', async ({ baseUrl }) => docsPage(baseUrl));
