import { SEARCH_CONFIGS } from './documents';
import type { QueryNode } from './query-language';
import type { SqlValue } from './sql-engine';

/**
 * A parsed query (search/query-language.ts) as SQL over one index table aliased `t`
 * (docs/search.md): the condition a row matches, and the text query that ranks and highlights
 * what matched. Every value travels as a parameter; only this code's own names are in the text.
 *
 * Text is read in the row's own configuration (its customer's language: `english`, `italian`…
 * or `simple`), among those its tenant uses (search_configs): with one, `tsv @@ <query>`; with
 * several, `(config = 'english' AND tsv @@ <query in english>) OR …`. Each query is a constant of
 * the statement, so the planner sees how common its words are (from the column's statistics) and
 * the GIN index answers each arm; no configuration the tenant does not use is read (a prefix in
 * one walks that configuration's lexemes only). Words in a configuration's stop list drop out of
 * that configuration's query (as PostgreSQL's own parsers do); a query left with no words matches
 * nothing in it.
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

/** A text-only node as a tsquery expression in the configuration `config` (one of SEARCH_CONFIGS). */
const tsquery = (node: QueryNode, config: string, param: (text: string) => string): string => {
  switch (node.kind) {
    case 'word':
      return node.prefix
        ? `to_tsquery('${config}', quote_literal(${param(node.text)}) || ':*')`
        : `plainto_tsquery('${config}', ${param(node.text)})`;
    case 'phrase':
      return `phraseto_tsquery('${config}', ${param(node.text)})`;
    case 'and':
      return `(${node.children.map((c) => tsquery(c, config, param)).join(' && ')})`;
    case 'or':
      return `(${node.children.map((c) => tsquery(c, config, param)).join(' || ')})`;
    case 'not':
      return `(!! ${tsquery(node.child, config, param)})`;
    default:
      throw new Error(`not a text node: ${node.kind}`);
  }
};

/**
 * The text of one search in the configurations its tenant uses: each word a parameter once,
 * whatever the number of configurations and of times it is used.
 */
class TextQueries {
  readonly #words = new Map<string, string>();
  constructor(
    private readonly p: SqlParams,
    private readonly configs: readonly string[],
  ) {
    for (const config of configs)
      if (!(SEARCH_CONFIGS as readonly string[]).includes(config))
        throw new Error(`not a search configuration: ${config}`);
  }

  readonly #param = (text: string) => {
    let placeholder = this.#words.get(text);
    if (!placeholder) {
      placeholder = this.p.add(text);
      this.#words.set(text, placeholder);
    }
    return placeholder;
  };

  /** Whether row `t` matches `node` in its own configuration: the GIN index answers each arm. */
  matches(node: QueryNode): string {
    const arms = this.configs.map((config) =>
      this.configs.length === 1
        ? `t.tsv @@ ${tsquery(node, config, this.#param)}`
        : `(t.config = '${config}'::regconfig AND t.tsv @@ ${tsquery(node, config, this.#param)})`,
    );
    return arms.length === 0 ? 'false' : `(${arms.join(' OR ')})`;
  }

  /** `node` as a tsquery in row `t`'s configuration. */
  query(node: QueryNode): string {
    const [only, ...more] = this.configs;
    if (only === undefined) return "''::tsquery";
    if (more.length === 0) return tsquery(node, only, this.#param);
    const cases = this.configs.map((c) => `WHEN '${c}'::regconfig THEN ${tsquery(node, c, this.#param)}`);
    return `(CASE t.config ${cases.join(' ')} END)`;
  }
}

const column = (columns: FilterColumns, key: keyof FilterColumns, filter: string): string => {
  const name = columns[key];
  if (!name) throw new UnsupportedFilter(filter);
  return `t.${name}`;
};

const condition = (node: QueryNode, columns: FilterColumns, p: SqlParams, text: TextQueries): string => {
  if (isText(node)) return text.matches(node);
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
  /** The condition on the row `t`. */
  where: string;
  /** The row's ranking query (in its configuration), undefined when the query has no words. */
  rankQuery: string | undefined;
}

/**
 * `configs`: the text configurations the tenant's rows are in (search_configs; a superset is
 * exact too, only slower). Rows in none of them match no words.
 */
export const compileQuery = (
  node: QueryNode,
  columns: FilterColumns,
  p: SqlParams,
  configs: readonly string[],
): CompiledQuery => {
  const text = new TextQueries(p, configs);
  const where = condition(node, columns, p, text);
  const positive = positiveText(node);
  const rankQuery =
    positive.length === 0
      ? undefined
      : text.query(positive.length === 1 ? (positive[0] as QueryNode) : { kind: 'or', children: positive });
  return { where, rankQuery };
};
