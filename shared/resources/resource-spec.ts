import type * as z from 'zod/mini';
import type { EntityKind } from '../store/keys';
import type { SearchSlot } from '../store/table-schema';

export type Fields = Record<string, unknown>;

/** A field served by a search index: `GET /<resource>/list?<param>=<value>`. */
export interface SearchField {
  slot: SearchSlot;
  /** Stored field the value comes from. */
  field: string;
  /** How a value is keyed (e.g. e-mails case-insensitively); identity when absent. */
  normalize?: (value: string) => string;
}

/** A field whose value is unique within a tenant, enforced by a guard item. */
export interface UniqueField {
  field: string;
  normalize: (value: string) => string;
  /** Problem code and message of the 409. */
  code: string;
  message: string;
}

/** A body field that must point at an existing record of the tenant. */
export interface ReferenceField {
  path: string;
  kind: EntityKind;
  label: string;
  idOf: (fields: Fields) => string | null | undefined;
}

/**
 * Everything the generic record repository and handlers need to know about one resource.
 * Customers, agents and the three lookups are each one spec; there is one implementation.
 */
export interface ResourceSpec {
  kind: EntityKind;
  /** Human name for messages: "Customer". */
  label: string;
  /** Path segment of the routes: `/customer/...`. */
  pathPrefix: string;
  /** Key of the list wrapper: `{ customer: { totalRecords, ... } }`. */
  listKey: string;
  insertSchema: z.ZodMiniType<Fields>;
  updateSchema: z.ZodMiniType<Fields>;
  search: Record<string, SearchField>;
  unique: UniqueField[];
  references: ReferenceField[];
  /** Turns validated input (merged over the current fields on update) into stored fields. */
  store: (input: Fields, current: Fields | undefined) => Fields;
  /** Shapes a stored item as the API returns it (every field present, null when empty). */
  toApi: (item: Fields, baseUrl: string) => Fields;
  /**
   * Bytes kept outside the table (the customer photo in S3): `stage` runs before the
   * transaction and returns the input to store plus how to undo it if the transaction fails;
   * `release` runs after a successful write and deletes what the record no longer points at.
   */
  blobs?: {
    stage: (tenantId: string, input: Fields) => Promise<{ input: Fields; undo: () => Promise<void> }>;
    release: (before: Fields | undefined, after: Fields | undefined) => Promise<void>;
  };
}
