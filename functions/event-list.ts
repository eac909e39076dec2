import { readFeed } from '../shared/domain/feed';
import { apiHandler } from '../shared/http/api-handler';
import { fitCount, payloadBytes } from '../shared/http/byte-budget';
import { json } from '../shared/http/responses';
import { eventView } from '../shared/http/views/event';
import { pageUrl } from '../shared/http/views/page';
import type { EventListQuery } from '../shared/schemas/events';
import type { EventFeedView } from '../shared/schemas/views';
import { PAGE_BYTES, RECORDS_PER_PAGE } from '../shared/store/pages';

/** `GET /event/list`: the change feed, oldest first; nextQuery always leads on (poll it). */
export const handler = apiHandler(
  'eventList',
  async ({ tenantId, query, rawQuery, baseUrl, routeUrl, compat }) => {
    const feed = await readFeed(tenantId, query as EventListQuery);
    const records = feed.events.map((e) => eventView(e, feed.related, baseUrl, compat));
    // As many whole events as a response can carry (at least one), the rest from the next page.
    const kept = fitCount(records.map(payloadBytes), PAGE_BYTES, 1);
    const next = await feed.next(kept);
    const filter: Record<string, string> = rawQuery.type ? { type: rawQuery.type } : {};
    const body: EventFeedView = {
      event: {
        recordsPerPage: RECORDS_PER_PAGE,
        previousQuery: null,
        nextQuery: pageUrl(routeUrl, filter, next),
        records: records.slice(0, kept),
      },
    };
    return json(200, body);
  },
);
