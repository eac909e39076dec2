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
 * or `simple`): the condition is `tsv @@ <the text query read in every configuration, OR'd>`,
 * which the GIN index answers, and, exactly, the query read in the row's configuration. Words in
 * a configuration's stop list drop out of that configuration's query (as PostgreSQL's own parsers
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

/** A text-only node as a tsquery expression in `config`, its words as parameters. */
const tsquery = (node: QueryNode, config: string, p: SqlParams, words: Map<string, string>): string => {
  const param = (text: string) => {
    let placeholder = words.get(text);
    if (!placeholder) {
      placeholder = p.add(text);
      words.set(text, placeholder);
    }
    return placeholder;
  };
  const cfg = `'${config}'::regconfig`;
  switch (node.kind) {
    case 'word':
      return node.prefix
        ? `to_tsquery(${cfg}, quote_literal(${param(node.text)}) || ':*')`
        : `plainto_tsquery(${cfg}, ${param(node.text)})`;
    case 'phrase':
      return `phraseto_tsquery(${cfg}, ${param(node.text)})`;
    case 'and':
      return `(${node.children.map((c) => tsquery(c, config, p, words)).join(' && ')})`;
    case 'or':
      return `(${node.children.map((c) => tsquery(c, config, p, words)).join(' || ')})`;
    case 'not':
      return `(!! ${tsquery(node.child, config, p, words)})`;
    default:
      throw new Error(`not a text node: ${node.kind}`);
  }
};

/** `node` read in each configuration: the per-configuration queries, CASE'd on the row's. */
const byConfig = (node: QueryNode, p: SqlParams) => {
  const words = new Map<string, string>();
  const queries = SEARCH_CONFIGS.map((config) => [config, tsquery(node, config, p, words)] as const);
  const any = queries.map(([, q]) => q).join(' || ');
  const own = `CASE t.config ${queries.map(([c, q]) => `WHEN '${c}'::regconfig THEN ${q}`).join(' ')} END`;
  return { any, own };
};

const column = (columns: FilterColumns, key: keyof FilterColumns, filter: string): string => {
  const name = columns[key];
  if (!name) throw new UnsupportedFilter(filter);
  return `t.${name}`;
};

const condition = (node: QueryNode, columns: FilterColumns, p: SqlParams): string => {
  if (isText(node)) {
    const { any, own } = byConfig(node, p);
    return `(t.tsv @@ (${any}) AND t.tsv @@ (${own}))`;
  }
  switch (node.kind) {
    case 'and':
      return `(${node.children.map((c) => condition(c, columns, p)).join(' AND ')})`;
    case 'or':
      return `(${node.children.map((c) => condition(c, columns, p)).join(' OR ')})`;
    case 'not':
      // A missing value is not the value: `-assignedTo:x` keeps unassigned tickets.
      return `((${condition(node.child, columns, p)}) IS NOT TRUE)`;
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
  /** The row's ranking query (a tsquery expression), undefined when the query has no words. */
  rankQuery: string | undefined;
}

export const compileQuery = (node: QueryNode, columns: FilterColumns, p: SqlParams): CompiledQuery => {
  const where = condition(node, columns, p);
  const positive = positiveText(node);
  const rankQuery =
    positive.length === 0
      ? undefined
      : byConfig(positive.length === 1 ? (positive[0] as QueryNode) : { kind: 'or', children: positive }, p)
          .own;
  return { where, rankQuery };
};
