import { queryOf } from '../../shared/store/expression';
import { queryAll } from '../../shared/store/query-all';

/** Every item of one partition of the table, read consistently (all of its 1 MB pages). */
export const partitionItems = (pk: string) =>
  queryAll({ ...queryOf({ partition: ['pk', pk] }), ConsistentRead: true });
