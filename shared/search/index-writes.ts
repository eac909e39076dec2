import { type CustomerDocument, SEARCH_CONFIGS, type TicketDocument } from './documents';
import type { SqlEngine } from './sql-engine';

/**
 * The indexer's writes (search/indexer.ts): one statement each, every one idempotent and guarded
 * by the record's version, so a late or repeated stream record never puts back an older state.
 * Every statement names its tenant.
 */

const TICKET_COLUMNS = [
  'version',
  'status',
  'priority',
  'tags',
  'opened_by',
  'assigned_to',
  'type_id',
  'area_id',
  'group_id',
  'created_at',
  'updated_at',
  'has_attachment',
  'subject',
  'description',
  'replies',
  'notes',
  'documents',
] as const;

/**
 * A statement's CTE that records the configuration of the row it writes (the CTE `customer`'s) as
 * one its tenant uses (`search_configs`, read by every search); nothing when it is known already.
 */
const CONFIG_RECORDED = `recorded AS (
       INSERT INTO search_configs (tenant_id, config) SELECT $1, config FROM customer
       ON CONFLICT DO NOTHING
     )`;

/**
 * The end of every statement that may change a tenant's rows: the change (the CTE `written`,
 * a row for each row it changed) adds one to the tenant's generation (search_changes) in the same
 * transaction. The count reads every row of `written` first, so each writer locks its index rows
 * before the generation's (one order for every writer: no deadlock); a statement that changed
 * nothing leaves the generation as it was.
 */
const GENERATION_BUMPED = `INSERT INTO search_changes AS g (tenant_id, generation)
     SELECT $1, 1 FROM written HAVING count(*) > 0
     ON CONFLICT (tenant_id) DO UPDATE SET generation = g.generation + 1`;

const assignments = (columns: readonly string[]) => columns.map((c) => `${c} = EXCLUDED.${c}`).join(', ');

/**
 * A ticket as it is now. Its text configuration and customer words come from its customer's row
 * (`simple` and none when that row is missing); a ticket of a newer version than `doc` keeps its row.
 */
export const upsertTicket = (engine: SqlEngine, tenantId: string, doc: TicketDocument) =>
  engine.query(
    `WITH customer AS (
       SELECT coalesce(c.config, 'simple'::regconfig) AS config, c.ticket_text
       FROM (SELECT 1) AS one LEFT JOIN search_customers c ON c.tenant_id = $1 AND c.id = $7
     ), ${CONFIG_RECORDED}, written AS (
       INSERT INTO search_tickets AS t (tenant_id, id, config, customer, ${TICKET_COLUMNS.join(', ')})
       SELECT $1, $2, customer.config, customer.ticket_text,
         $3, $4, $5, ARRAY(SELECT jsonb_array_elements_text($6::jsonb)), $7, $8, $9, $10, $11, $12,
         $13, $14, $15, $16, $17, $18, $19
       FROM customer
       ON CONFLICT (tenant_id, id) DO UPDATE SET
         config = EXCLUDED.config, customer = EXCLUDED.customer, ${assignments(TICKET_COLUMNS)}
       WHERE t.version <= EXCLUDED.version
       RETURNING 1
     )
     ${GENERATION_BUMPED}`,
    [
      tenantId,
      doc.id,
      doc.version,
      doc.status,
      doc.priority,
      JSON.stringify(doc.tags),
      doc.openedBy,
      doc.assignedTo,
      doc.type,
      doc.area,
      doc.group,
      doc.createdAt,
      doc.updatedAt,
      doc.hasAttachment,
      doc.subject,
      doc.description,
      doc.replies,
      doc.notes,
      doc.documents,
    ],
  );

/** A ticket no longer in the table (deleted, in the trash, purged). */
export const removeTicket = (engine: SqlEngine, tenantId: string, id: string) =>
  engine.query(
    `WITH written AS (DELETE FROM search_tickets WHERE tenant_id = $1 AND id = $2 RETURNING 1)
     ${GENERATION_BUMPED}`,
    [tenantId, id],
  );

const CUSTOMER_COLUMNS = [
  'version',
  'config',
  'name',
  'email',
  'details',
  'ticket_text',
  'created_at',
  'updated_at',
] as const;

/**
 * A customer as they are now, and, when that changed their language or the words their tickets
 * are found by, those tickets' rows (in the same statement: a stale customer changes nothing).
 */
export const upsertCustomer = (engine: SqlEngine, tenantId: string, doc: CustomerDocument) =>
  engine.query(
    `WITH customer AS (SELECT $4::regconfig AS config), ${CONFIG_RECORDED}, saved AS (
       INSERT INTO search_customers AS c (tenant_id, id, ${CUSTOMER_COLUMNS.join(', ')})
       VALUES ($1, $2, $3, $4::regconfig, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (tenant_id, id) DO UPDATE SET ${assignments(CUSTOMER_COLUMNS)}
       WHERE c.version <= EXCLUDED.version
       RETURNING config, ticket_text
     ), tickets AS (
       UPDATE search_tickets t SET config = saved.config, customer = saved.ticket_text
       FROM saved
       WHERE t.tenant_id = $1 AND t.opened_by = $2
         AND (t.config <> saved.config OR t.customer IS DISTINCT FROM saved.ticket_text)
       RETURNING 1
     ), written AS (SELECT 1 FROM saved UNION ALL SELECT 1 FROM tickets)
     ${GENERATION_BUMPED}`,
    [
      tenantId,
      doc.id,
      doc.version,
      doc.config,
      doc.name,
      doc.email,
      doc.details,
      doc.ticketText,
      doc.createdAt,
      doc.updatedAt,
    ],
  );

/**
 * Customer $2's row leaves the index, and the rows of the tickets they opened (those `which` also
 * picks) are SET as `set` says, in one statement that moves the tenant's generation.
 */
const customerGone = (set: string, which = 'true') => `WITH gone AS (
       DELETE FROM search_customers WHERE tenant_id = $1 AND id = $2 RETURNING id
     ), tickets AS (
       UPDATE search_tickets SET ${set} WHERE tenant_id = $1 AND opened_by = $2 AND ${which} RETURNING 1
     ), written AS (SELECT 1 FROM gone UNION ALL SELECT 1 FROM tickets)
     ${GENERATION_BUMPED}`;

/** A customer no longer in the table: their row, and their words on their tickets' rows. */
export const removeCustomer = (engine: SqlEngine, tenantId: string, id: string) =>
  engine.query(customerGone('customer = NULL', 'customer IS NOT NULL'), [tenantId, id]);

/**
 * An erased customer (`customer.erased`): their row goes, and every text of the tickets they
 * opened leaves the index at once (their fields stay findable); the erasure's run rewrites or
 * deletes those tickets, and its end has them indexed again as they are then (search/indexer.ts).
 */
export const forgetCustomer = (engine: SqlEngine, tenantId: string, id: string) =>
  engine.query(
    customerGone(
      'subject = NULL, description = NULL, replies = NULL, notes = NULL, documents = NULL, customer = NULL',
    ),
    [tenantId, id],
  );

/** The tickets an erasure may have rewritten: those the customer opened, and those whose text names them. */
export const ticketsNaming = async (
  engine: SqlEngine,
  tenantId: string,
  customerId: string,
  identifiers: readonly string[],
): Promise<string[]> => {
  const rows = await engine.query<{ id: string }>(
    `SELECT id FROM search_tickets
     WHERE tenant_id = $1 AND (opened_by = $2 OR tsv @@ (
       SELECT coalesce(string_agg(q::text, ' | '), '')::tsquery FROM (
         SELECT phraseto_tsquery(cfg::regconfig, i) AS q
         FROM jsonb_array_elements_text($3::jsonb) AS i, jsonb_array_elements_text($4::jsonb) AS cfg
       ) AS phrases WHERE q::text <> ''))`,
    [tenantId, customerId, JSON.stringify(identifiers), JSON.stringify(SEARCH_CONFIGS)],
  );
  return rows.map((r) => r.id);
};
