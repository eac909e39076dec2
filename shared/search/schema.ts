import type { SqlEngine } from './sql-engine';

/**
 * The search index's schema, as versioned migrations applied in order, each once (the table
 * `search_migrations` names those applied). Locally search/engine.ts applies them when it opens
 * the database; in AWS the stack's migration function does, on every deploy, before the functions
 * that read the index change (infra/search.ts). A migration is never edited once released: a
 * change is a new one. PostgreSQL 15's features only (Aurora's and Debian's); PGlite runs them too.
 *
 * The index is a read model of the table (docs/search.md): one row per ticket and per customer of
 * every tenant, rebuilt from DynamoDB whenever it is lost (`helpdesk search reindex`).
 */
export interface Migration {
  version: number;
  name: string;
  statements: readonly string[];
}

/** Weights: what a match in each field is worth to `ts_rank` (A the most). */
const ticketVector = `
  setweight(to_tsvector(config, coalesce(subject, '')), 'A') ||
  setweight(to_tsvector(config, coalesce(description, '')), 'B') ||
  setweight(to_tsvector(config, coalesce(replies, '') || E'\\n' || coalesce(notes, '')), 'C') ||
  setweight(to_tsvector(config, coalesce(documents, '') || E'\\n' || coalesce(customer, '')), 'D')`;

const customerVector = `
  setweight(to_tsvector(config, coalesce(name, '')), 'A') ||
  setweight(to_tsvector('simple', coalesce(email, '')), 'A') ||
  setweight(to_tsvector(config, coalesce(details, '')), 'C')`;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'tickets, customers, tenants and applied positions',
    statements: [
      // Tenant first in every key and index: every query names its tenant (search/tenant-sql.ts).
      'CREATE EXTENSION IF NOT EXISTS btree_gin',
      `CREATE TABLE search_tickets (
        tenant_id text NOT NULL,
        id text NOT NULL,
        version bigint NOT NULL,
        config regconfig NOT NULL,
        status text NOT NULL,
        priority smallint NOT NULL,
        tags text[] NOT NULL,
        opened_by text,
        assigned_to text,
        type_id text,
        area_id text,
        group_id text,
        created_at bigint NOT NULL,
        updated_at bigint NOT NULL,
        has_attachment boolean NOT NULL,
        subject text,
        description text,
        replies text,
        notes text,
        documents text,
        customer text,
        tsv tsvector GENERATED ALWAYS AS (${ticketVector}) STORED,
        PRIMARY KEY (tenant_id, id)
      )`,
      'CREATE INDEX search_tickets_text ON search_tickets USING gin (tenant_id, tsv)',
      'CREATE INDEX search_tickets_tags ON search_tickets USING gin (tenant_id, tags)',
      'CREATE INDEX search_tickets_created ON search_tickets (tenant_id, created_at, id)',
      'CREATE INDEX search_tickets_updated ON search_tickets (tenant_id, updated_at, id)',
      'CREATE INDEX search_tickets_customer ON search_tickets (tenant_id, opened_by)',
      `CREATE TABLE search_customers (
        tenant_id text NOT NULL,
        id text NOT NULL,
        version bigint NOT NULL,
        config regconfig NOT NULL,
        name text,
        email text,
        details text,
        ticket_text text,
        created_at bigint NOT NULL,
        updated_at bigint NOT NULL,
        tsv tsvector GENERATED ALWAYS AS (${customerVector}) STORED,
        PRIMARY KEY (tenant_id, id)
      )`,
      'CREATE INDEX search_customers_text ON search_customers USING gin (tenant_id, tsv)',
      'CREATE INDEX search_customers_created ON search_customers (tenant_id, created_at, id)',
      'CREATE INDEX search_customers_updated ON search_customers (tenant_id, updated_at, id)',
      // The watermark: the newest change feed position applied (search/positions.ts).
      `CREATE TABLE search_tenants (
        tenant_id text PRIMARY KEY,
        position text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`,
      // Positions applied recently, exactly: those the watermark cannot vouch for yet.
      `CREATE TABLE search_applied (
        tenant_id text NOT NULL,
        position text NOT NULL,
        PRIMARY KEY (tenant_id, position)
      )`,
    ],
  },
  {
    version: 2,
    name: 'the configurations each tenant uses, its index generation; filters in the text index; no JIT',
    statements: [
      // The text configurations a tenant's rows are in (a superset: a row's configuration is
      // recorded with it and never taken back). A search reads its words in these only: read in
      // every configuration PostgreSQL stems, a prefix such as `zubri*` became `zubr:*` in Italian
      // and walked every lexeme of every tenant that starts so (docs/performance.md).
      `CREATE TABLE search_configs (
        tenant_id text NOT NULL,
        config regconfig NOT NULL,
        PRIMARY KEY (tenant_id, config)
      )`,
      `INSERT INTO search_configs (tenant_id, config)
       SELECT DISTINCT tenant_id, config FROM search_tickets
       UNION SELECT DISTINCT tenant_id, config FROM search_customers
       ON CONFLICT DO NOTHING`,
      // Each tenant's index generation: every statement that changes a tenant's rows adds one to
      // it in its own transaction, so a count read with generation g holds while it is still g
      // (a search's next pages carry their total instead of counting every match again).
      `CREATE TABLE search_changes (
        tenant_id text PRIMARY KEY,
        generation bigint NOT NULL
      )`,
      // The filters a query ANDs with its words in the text index itself: the index answers
      // `refund status:closed priority:1` without visiting the rows of every refund.
      'DROP INDEX search_tickets_text',
      'DROP INDEX search_tickets_tags',
      `CREATE INDEX search_tickets_match ON search_tickets USING gin
        (tenant_id, tsv, tags, status, priority, assigned_to, type_id, area_id, group_id)`,
      // A search is one statement of a few milliseconds: compiling it to machine code costs more
      // than it saves (PostgreSQL's default threshold is met by any count over a large tenant).
      'ALTER ROLE CURRENT_USER SET jit = off',
    ],
  },
];

const LEDGER = `CREATE TABLE IF NOT EXISTS search_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

/**
 * Applies the migrations not applied yet, in order; each with its ledger row in one transaction
 * (a `DO` block: the Data API runs one statement a call), so a migration cut short is applied
 * again whole. Two deploys at once: the second one's ledger insert fails on the primary key and
 * its transaction rolls back. Answers the versions it applied (`migrations`: the
 * first ones only, as a test of a later one starts).
 */
export const migrate = async (
  engine: SqlEngine,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> => {
  await engine.query(LEDGER);
  const rows = await engine.query<{ version: number }>('SELECT version FROM search_migrations');
  const applied = new Set(rows.map((r) => Number(r.version)));
  const done: number[] = [];
  for (const m of migrations) {
    if (applied.has(m.version)) continue;
    const body = [
      ...m.statements,
      `INSERT INTO search_migrations (version, name) VALUES (${m.version}, ${quote(m.name)})`,
    ]
      .map((s) => `EXECUTE ${quote(s)};`)
      .join('\n');
    await engine.query(`DO $migration$ BEGIN\n${body}\nEND $migration$`);
    done.push(m.version);
  }
  return done;
};

/** A SQL string literal of this code's own text. */
const quote = (text: string): string => `'${text.replaceAll("'", "''")}'`;
