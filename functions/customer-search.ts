import { apiHandler } from '../shared/http/api-handler';
import { searchRequest } from '../shared/http/search-request';
import { pageResponse } from '../shared/http/views/page';
import { customerView } from '../shared/http/views/records';
import { CUSTOMERS, search } from '../shared/search/searches';
import type { CustomerRecord } from '../shared/store/entities/records';
import { readRelated } from '../shared/store/ticket-reads';

/**
 * `GET /customer/search`: the index names the page's customers and their highlights; the records
 * are read from the table in one BatchGet (a customer removed since the index saw them is left out).
 */
export const handler = apiHandler(
  'customerSearch',
  async ({ tenantId, query, rawQuery, event, baseUrl, routeUrl, compat }) => {
    const { request, filter, minPosition } = searchRequest(query, rawQuery, event);
    const found = await search(CUSTOMERS, tenantId, request, minPosition);
    const records = found.hits.length
      ? await readRelated(
          tenantId,
          found.hits.map((h) => ({ kind: 'CUSTOMER' as const, id: h.id })),
        )
      : () => undefined;
    const items = found.hits.map((hit) => {
      const record = records('CUSTOMER', hit.id);
      return record && { hit, record: record as unknown as CustomerRecord };
    });
    return compat.page(
      'customer',
      await pageResponse(
        { ...found, items, fetched: new Map() },
        ({ hit, record }) => ({ ...customerView(record, baseUrl), highlights: hit.highlights }),
        routeUrl,
        filter,
      ),
    );
  },
);
