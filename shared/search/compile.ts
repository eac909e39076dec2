import { SEARCH_CONFIGS } from './documents';
import type { QueryNode } from './query-language';
import type { SqlValue } from './sql-engine';

/**
 * A parsed query (search/query-language.ts) as SQL over one index table aliased `t`
 * (docs/search.md): the condition a row matches, and the text query that ranks and highlights
 * what matched. Every value travels as a parameter; only this code's own names and the fixed
 * configurations are in the text.
 *
 * Text is read in the row's own configuration (its customer's language: `english`, `italian`…
 * or `simple`): each text query is written once, read in every configuration by the CTE `q` (one
 * row per configuration), and the condition is `tsv @@ <that query in every configuration, OR'd>`,
 * which the GIN index answers, and, exactly, the query in the row's configuration. Words in a
 * configuration's stop list drop out of that configuration's query (as PostgreSQL's own parsers
 * do); a query left with no words matches nothing in it.
 */
export class SqlParams {
  readonly values: SqlValue[];
  constructor(initial: SqlValue[] = []) {
    this.values = [...initial];
  }
  /** The placeholder of a new parameter. */
  add(value: SqlValue): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** What a table lets a query filter by: its columns, or undefined where it has none (customers have no status). */
export interface FilterColumns {
  status?: string;
  priority?: string;
  tags?: string;
  assignedTo?: string;
  openedBy?: string;
  type?: string;
  area?: string;
  group?: string;
  created: string;
  updated: string;
  hasAttachment?: string;
}

/** A filter the table cannot answer (the route answers it as a 400 naming the filter). */
export class UnsupportedFilter extends Error {
  constructor(readonly filter: string) {
    super(`${filter}: is not a filter of this search`);
  }
}

const isText = (node: QueryNode): boolean => {
  switch (node.kind) {
    case 'word':
    case 'phrase':
      return true;
    case 'and':
    case 'or':
      return node.children.every(isText);
    case 'not':
      return isText(node.child);
    default:
      return false;
  }
};

/** A text-only node as a tsquery expression in the configuration `c.config` (search/search-reads.ts `q`). */
const tsquery = (node: QueryNode, p: SqlParams, words: Map<string, string>): string => {
  const param = (text: string) => {
    let placeholder = words.get(text);
    if (!placeholder) {
      placeholder = p.add(text);
      words.set(text, placeholder);
    }
    return placeholder;
  };
  switch (node.kind) {
    case 'word':
      return node.prefix
        ? `to_tsquery(c.config, quote_literal(${param(node.text)}) || ':*')`
        : `plainto_tsquery(c.config, ${param(node.text)})`;
    case 'phrase':
      return `phraseto_tsquery(c.config, ${param(node.text)})`;
    case 'and':
      return `(${node.children.map((c) => tsquery(c, p, words)).join(' && ')})`;
    case 'or':
      return `(${node.children.map((c) => tsquery(c, p, words)).join(' || ')})`;
    case 'not':
      return `(!! ${tsquery(node.child, p, words)})`;
    default:
      throw new Error(`not a text node: ${node.kind}`);
  }
};

/**
 * The text queries of one search: each text node's query as a column of the CTE `q`, one row per
 * configuration (`c.config`), written once whatever the number of configurations.
 */
class TextQueries {
  readonly columns: string[] = [];
  readonly #words = new Map<string, string>();
  constructor(private readonly p: SqlParams) {}

  /** The column of `node`'s query in `q`. */
  add(node: QueryNode): string {
    const name = `q${this.columns.length + 1}`;
    this.columns.push(`${tsquery(node, this.p, this.#words)} AS ${name}`);
    return name;
  }
}

/** Column `name` of `q` in the row `t`'s own configuration. */
const own = (name: string) => `(SELECT q.${name} FROM q WHERE q.config = t.config)`;

/**
 * The query of column `name` in every configuration at once (OR'd, a configuration whose query
 * lost every word to its stop list left out): a constant of the statement, which the GIN index
 * answers; every row it finds is then checked in its own configuration.
 */
const any = (name: string) =>
  `(SELECT coalesce(string_agg('(' || q.${name}::text || ')', ' | '), '')::tsquery FROM q WHERE q.${name}::text <> '')`;

const column = (columns: FilterColumns, key: keyof FilterColumns, filter: string): string => {
  const name = columns[key];
  if (!name) throw new UnsupportedFilter(filter);
  return `t.${name}`;
};

const condition = (node: QueryNode, columns: FilterColumns, p: SqlParams, text: TextQueries): string => {
  if (isText(node)) {
    const name = text.add(node);
    return `(t.tsv @@ ${any(name)} AND t.tsv @@ ${own(name)})`;
  }
  switch (node.kind) {
    case 'and':
      return `(${node.children.map((c) => condition(c, columns, p, text)).join(' AND ')})`;
    case 'or':
      return `(${node.children.map((c) => condition(c, columns, p, text)).join(' OR ')})`;
    case 'not':
      // A missing value is not the value: `-assignedTo:x` keeps unassigned tickets.
      return `((${condition(node.child, columns, p, text)}) IS NOT TRUE)`;
    case 'status':
      return `${column(columns, 'status', 'status')} = ${p.add(node.value)}`;
    case 'priority':
      return `${column(columns, 'priority', 'priority')} = ${p.add(node.value)}`;
    case 'tag':
      return `${column(columns, 'tags', 'tag')} @> ARRAY[${p.add(node.value)}]::text[]`;
    case 'id':
      return `${column(columns, node.field, node.field)} = ${p.add(node.value)}`;
    case 'date':
      return `${column(columns, node.field, node.field)} ${node.op} ${p.add(node.at)}`;
    case 'has':
      return column(columns, 'hasAttachment', 'has');
    default:
      throw new Error(`unexpected node ${node.kind}`);
  }
};

/** The words a match is ranked and highlighted by: every text node not under a `-`, as one OR. */
const positiveText = (node: QueryNode): QueryNode[] => {
  if (node.kind === 'word' || node.kind === 'phrase') return [node];
  if (node.kind === 'and' || node.kind === 'or') return node.children.flatMap(positiveText);
  return [];
};

export interface CompiledQuery {
  /**
   * The select list of the CTE `q` the statement must define over `(VALUES …) AS c(config)`
   * (`SEARCH_CONFIGS`): each text query in each configuration. Empty: the query has no words.
   */
  text: string[];
  /** The condition on the row `t`. */
  where: string;
  /** The row's ranking query (in its configuration), undefined when the query has no words. */
  rankQuery: string | undefined;
}

/** The configurations as the rows of `q` (their names are this code's, never a caller's). */
export const CONFIG_ROWS = `(VALUES ${SEARCH_CONFIGS.map((c) => `('${c}'::regconfig)`).join(', ')}) AS c(config)`;

export const compileQuery = (node: QueryNode, columns: FilterColumns, p: SqlParams): CompiledQuery => {
  const text = new TextQueries(p);
  const where = condition(node, columns, p, text);
  const positive = positiveText(node);
  const rankQuery =
    positive.length === 0
      ? undefined
      : own(
          text.add(positive.length === 1 ? (positive[0] as QueryNode) : { kind: 'or', children: positive }),
        );
  return { text: text.columns, where, rankQuery };
};
