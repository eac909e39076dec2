/** Every item of one partition of the table, read consistently (all of its 1 MB pages). */
export { partitionItems } from '../../shared/store/query-all';
