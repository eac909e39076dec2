/**
 * DynamoDB's expression syntax, written in one place: conditions, updates and key conditions are
 * described as data (`Cond`, `UpdateSpec`, `KeyCond`) and rendered here with placeholders for
 * every attribute name and value, so no caller spells `attribute_exists(`, `SET #a = :v` or
 * escapes a reserved word by hand, and two parts of one element never collide on a placeholder.
 * Nothing here sends anything: the result is the SDK's parameters (`UpdateExpression`,
 * `ConditionExpression`, `KeyConditionExpression`, `FilterExpression`, `ProjectionExpression`,
 * `ExpressionAttributeNames`, `ExpressionAttributeValues`). Modelled on the operators of
 * dynamodb-toolbox, reduced to what this store says.
 *
 * An attribute is named by its path: `'version'`, or `'labels.en'` for a map member. A name
 * whose dot-separated parts are not all plain identifiers is one attribute, dots and all
 * (`'status=v1.2'`, a count kept per value): only `a.b` of identifiers is read as a path.
 */
export type Cond =
  | { exists: string }
  | { missing: string }
  | { eq: [string, unknown] }
  | { ne: [string, unknown] }
  | { lt: [string, unknown] }
  | { le: [string, unknown] }
  | { gt: [string, unknown] }
  | { ge: [string, unknown] }
  | { in: [string, readonly unknown[]] }
  | { beginsWith: [string, string] }
  /** `attribute_type(a, 'NULL')`: the attribute holds a value of this DynamoDB type (S, N, NULL, L, M, …). */
  | { attributeType: [string, AttributeType] }
  | { and: readonly (Cond | undefined)[] }
  | { or: readonly (Cond | undefined)[] }
  | { not: Cond };

/** DynamoDB's attribute types, as `attribute_type` names them. */
export type AttributeType = 'S' | 'SS' | 'N' | 'NS' | 'B' | 'BS' | 'BOOL' | 'NULL' | 'L' | 'M';

/** What an UpdateItem does: `set` values (`ifMissing`: only where the attribute is absent), `add` numbers, `remove` attributes. */
export interface UpdateSpec {
  set?: Record<string, unknown>;
  /** `SET a = if_not_exists(a, v)`. */
  setIfMissing?: Record<string, unknown>;
  add?: Record<string, number>;
  remove?: readonly string[];
}

/** A Query's key condition: the partition's value and, optionally, one condition on the sort key. */
export interface KeyCond {
  partition: [string, unknown];
  sort?:
    | { eq: [string, unknown] }
    | { lt: [string, unknown] }
    | { le: [string, unknown] }
    | { gt: [string, unknown] }
    | { ge: [string, unknown] }
    | { beginsWith: [string, string] }
    | { between: [string, unknown, unknown] };
}

interface Rendered {
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

const COMPARISONS = { eq: '=', ne: '<>', lt: '<', le: '<=', gt: '>', ge: '>=' } as const;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The members of a path (`a.b` → a, b), or the whole name when it is no path of identifiers. */
const membersOf = (path: string): string[] => {
  const parts = path.split('.');
  return parts.length > 1 && parts.every((part) => IDENTIFIER.test(part)) ? parts : [path];
};

/**
 * A placeholder registry for one request element. `prefix` keeps registries apart when an
 * element is extended afterwards (a feed clock or a home fence added to a write): their names
 * and values never meet.
 */
class Expressions {
  private readonly names = new Map<string, string>();
  private readonly values: Record<string, unknown> = {};
  private next = 0;

  constructor(private readonly prefix = '') {}

  /** `#…` placeholders of a path, one per member (`a.b` → `#p0.#p1`). */
  name(path: string): string {
    return membersOf(path)
      .map((part) => {
        let placeholder = this.names.get(part);
        if (!placeholder) {
          placeholder = `#${this.prefix}n${this.names.size}`;
          this.names.set(part, placeholder);
        }
        return placeholder;
      })
      .join('.');
  }

  /** A `:…` placeholder holding `v`. */
  value(v: unknown): string {
    const placeholder = `:${this.prefix}v${this.next++}`;
    this.values[placeholder] = v;
    return placeholder;
  }

  condition(c: Cond): string {
    if ('exists' in c) return `attribute_exists(${this.name(c.exists)})`;
    if ('missing' in c) return `attribute_not_exists(${this.name(c.missing)})`;
    if ('in' in c) return `${this.name(c.in[0])} IN (${c.in[1].map((v) => this.value(v)).join(', ')})`;
    if ('beginsWith' in c)
      return `begins_with(${this.name(c.beginsWith[0])}, ${this.value(c.beginsWith[1])})`;
    if ('attributeType' in c)
      return `attribute_type(${this.name(c.attributeType[0])}, ${this.value(c.attributeType[1])})`;
    if ('not' in c) return `NOT (${this.condition(c.not)})`;
    if ('and' in c || 'or' in c) {
      const parts = ('and' in c ? c.and : c.or).filter((p): p is Cond => p !== undefined);
      if (parts.length === 0) throw new Error('an empty and/or condition');
      if (parts.length === 1) return this.condition(parts[0] as Cond);
      return parts.map((p) => `(${this.condition(p)})`).join('and' in c ? ' AND ' : ' OR ');
    }
    const [op, [path, v]] = Object.entries(c)[0] as [keyof typeof COMPARISONS, [string, unknown]];
    return `${this.name(path)} ${COMPARISONS[op]} ${this.value(v)}`;
  }

  update(u: UpdateSpec): string {
    const set = [
      ...Object.entries(u.set ?? {}).map(([path, v]) => `${this.name(path)} = ${this.value(v)}`),
      ...Object.entries(u.setIfMissing ?? {}).map(([path, v]) => {
        const n = this.name(path);
        return `${n} = if_not_exists(${n}, ${this.value(v)})`;
      }),
    ];
    const add = Object.entries(u.add ?? {}).map(([path, v]) => `${this.name(path)} ${this.value(v)}`);
    const remove = (u.remove ?? []).map((path) => this.name(path));
    const clauses = [
      set.length ? `SET ${set.join(', ')}` : '',
      add.length ? `ADD ${add.join(', ')}` : '',
      remove.length ? `REMOVE ${remove.join(', ')}` : '',
    ].filter(Boolean);
    if (clauses.length === 0) throw new Error('an update that changes nothing');
    return clauses.join(' ');
  }

  keyCondition(k: KeyCond): string {
    const partition = `${this.name(k.partition[0])} = ${this.value(k.partition[1])}`;
    if (!k.sort) return partition;
    const s = k.sort;
    // Every sort condition but BETWEEN is a condition too, written alike.
    const sort =
      'between' in s
        ? `${this.name(s.between[0])} BETWEEN ${this.value(s.between[1])} AND ${this.value(s.between[2])}`
        : this.condition(s);
    return `${partition} AND ${sort}`;
  }

  projection(paths: readonly string[]): string {
    return paths.map((p) => this.name(p)).join(', ');
  }

  /** The names and values used so far (omitted when empty, as the SDK wants). */
  rendered(): Rendered {
    const names = Object.fromEntries([...this.names].map(([part, placeholder]) => [placeholder, part]));
    return {
      ...(this.names.size ? { ExpressionAttributeNames: names } : {}),
      ...(this.next ? { ExpressionAttributeValues: { ...this.values } } : {}),
    };
  }
}

/** An UpdateItem's expressions: what it changes, and when (`when`). */
export const updateOf = (u: UpdateSpec, when?: Cond, prefix?: string) => {
  const x = new Expressions(prefix);
  const UpdateExpression = x.update(u);
  const ConditionExpression = when ? x.condition(when) : undefined;
  return { UpdateExpression, ...(ConditionExpression ? { ConditionExpression } : {}), ...x.rendered() };
};

/** A Put's, Delete's or ConditionCheck's condition. */
export const conditionOf = (when: Cond, prefix?: string) => {
  const x = new Expressions(prefix);
  const ConditionExpression = x.condition(when);
  return { ConditionExpression, ...x.rendered() };
};

/** A Query's key condition, and optionally what it keeps (`filter`) and returns (`project`). */
export const queryOf = (k: KeyCond, options: { filter?: Cond; project?: readonly string[] } = {}) => {
  const x = new Expressions();
  const KeyConditionExpression = x.keyCondition(k);
  const FilterExpression = options.filter ? x.condition(options.filter) : undefined;
  const ProjectionExpression = options.project ? x.projection(options.project) : undefined;
  return {
    KeyConditionExpression,
    ...(FilterExpression ? { FilterExpression } : {}),
    ...(ProjectionExpression ? { ProjectionExpression } : {}),
    ...x.rendered(),
  };
};

/** A GetItem's or Query's `ProjectionExpression`: only these attributes are returned. */
export const projectionOf = (paths: readonly string[]) => {
  const x = new Expressions();
  const ProjectionExpression = x.projection(paths);
  return { ProjectionExpression, ...x.rendered() };
};

/** An element as the SDK takes it (Put, Update, Delete, ConditionCheck), or the parts of one that matter here. */
interface Conditioned {
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

/**
 * `element` with `extra` ANDed to its condition (a feed clock, a home fence), rendered with its own
 * `prefix` so its placeholders cannot meet the element's.
 */
export const andCondition = <T extends Conditioned>(element: T, extra: Cond, prefix: string): T => {
  const added = conditionOf(extra, prefix);
  return {
    ...element,
    ConditionExpression: element.ConditionExpression
      ? `(${element.ConditionExpression}) AND (${added.ConditionExpression})`
      : added.ConditionExpression,
    ...(element.ExpressionAttributeNames || added.ExpressionAttributeNames
      ? {
          ExpressionAttributeNames: {
            ...element.ExpressionAttributeNames,
            ...added.ExpressionAttributeNames,
          },
        }
      : {}),
    ...(element.ExpressionAttributeValues || added.ExpressionAttributeValues
      ? {
          ExpressionAttributeValues: {
            ...element.ExpressionAttributeValues,
            ...added.ExpressionAttributeValues,
          },
        }
      : {}),
  };
};

/**
 * `element` (an Update) also doing `extra`, rendered with its own `prefix`: its clauses join the
 * element's (SET with SET, ADD with ADD, …), so the element stays one valid UpdateExpression.
 */
export const andUpdate = <T extends Conditioned & { UpdateExpression?: string }>(
  element: T,
  extra: UpdateSpec,
  prefix: string,
): T => {
  const x = new Expressions(prefix);
  const clauses = new Map<string, string>();
  for (const expression of [element.UpdateExpression ?? '', x.update(extra)]) {
    // Placeholders only (#…, :…), so the keywords are the clause boundaries.
    for (const [, keyword, body] of expression.matchAll(
      /(SET|ADD|REMOVE|DELETE)\s+(.*?)(?=\s+(?:SET|ADD|REMOVE|DELETE)\s|$)/g,
    ))
      clauses.set(
        keyword as string,
        clauses.has(keyword as string) ? `${clauses.get(keyword as string)}, ${body}` : (body as string),
      );
  }
  const added = x.rendered();
  return {
    ...element,
    UpdateExpression: [...clauses].map(([keyword, body]) => `${keyword} ${body}`).join(' '),
    ExpressionAttributeNames: { ...element.ExpressionAttributeNames, ...added.ExpressionAttributeNames },
    ExpressionAttributeValues: { ...element.ExpressionAttributeValues, ...added.ExpressionAttributeValues },
  };
};
