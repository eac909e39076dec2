import type { ListQuery } from '../http/list-query';
import type { Fields, ResourceSpec } from '../resources/resource-spec';
import { keys } from './keys';
import { listPage } from './pages';
import { searchCountName } from './records';
import { LIST_INDEX, SEARCH_INDEXES } from './table-schema';

/** A page of a resource's records, whole list or one exact-match search, each from its own index. */
export const listRecords = (spec: ResourceSpec, tenantId: string, query: ListQuery, baseUrl: string) => {
  const listUrl = `${baseUrl}/${spec.pathPrefix}/list`;
  const base = { tenantId, resource: spec.kind, page: query.page, cursor: query.cursor, listUrl };
  const toApi = (items: Fields[]) => items.map((item) => spec.toApi(item, baseUrl));
  if (!query.search) {
    return listPage(
      {
        ...base,
        index: LIST_INDEX,
        partition: keys.list(tenantId, spec.kind),
        countName: spec.kind,
        filter: {},
      },
      toApi,
    );
  }
  const [param, raw] = query.search;
  const search = spec.search[param];
  if (!search) throw new Error(`not searchable: ${param}`); // parseListQuery already rejected it
  const value = search.normalize ? search.normalize(raw) : raw;
  return listPage(
    {
      ...base,
      index: SEARCH_INDEXES[search.slot],
      partition: keys.search(tenantId, spec.kind, param, value),
      countName: searchCountName(spec, param, value),
      filter: { [param]: raw },
    },
    toApi,
  );
};
