import * as z from 'zod/mini';

/**
 * The query of a list route as a schema: `page` (an integer >= 1), `cursor` (from nextQuery /
 * previousQuery) and at most one search field among those the resource indexes, each value
 * checked (and normalised) by its own schema. Unknown fields are a 400 that names them.
 */
const PAGE = /^[1-9]\d{0,6}$/;
export const pageNumber = z.pipe(
  z.string().check(z.regex(PAGE, 'page must be an integer from 1 to 9999999')),
  z.transform(Number),
);
export const cursorText = z.string().check(z.minLength(1, 'cursor must not be empty'));

/** A search value as sent: 1 to 500 characters. */
/**
 * A search value becomes part of DynamoDB keys (a counter's sort key holds at most 1024 bytes):
 * beyond 800 bytes of UTF-8 no stored value (the longest, an `externalId1`, is 765) can match.
 */
export const SEARCH_VALUE_BYTES = 800;
export const searchText = z.string().check(
  z.minLength(1, 'must be 1 to 500 characters'),
  z.maxLength(500, 'must be 1 to 500 characters'),
  z.refine(
    (s) => new TextEncoder().encode(s).length <= SEARCH_VALUE_BYTES,
    `must be at most ${SEARCH_VALUE_BYTES} bytes in UTF-8`,
  ),
);

/** A search value checked and normalised by `parse` (undefined: invalid, with `message`). */
export const searchValue = (parse: (raw: string) => string | undefined, message: string) =>
  z.lazy(() =>
    z.pipe(
      searchText,
      z.transform((raw: string, ctx) => {
        const value = parse(raw);
        if (value === undefined) ctx.issues.push({ code: 'custom', message, input: raw });
        return value as string;
      }),
    ),
  );

type SearchSchemas = Record<string, z.ZodMiniType<string, string>>;

/**
 * What a ticket list's records are (`?view=`): `detail`, the default, the seed's "detail objects
 * of the page" (each ticket as `GET /ticket/{id}` answers it); `summary`, every field but the
 * conversation and the files, at two requests a page (docs/decisions.md, "Lists").
 */
const LIST_VIEWS = ['detail', 'summary'] as const;
export type ListView = (typeof LIST_VIEWS)[number];
const listView = z.enum(LIST_VIEWS, `must be one of ${LIST_VIEWS.join(', ')}`);

/** A parsed list query: the page, its cursor, the view, and the search fields (at most one set). */
export type ListQueryInput = { page: number; cursor?: string; view?: ListView } & {
  [search: string]: string | number | undefined;
};

/**
 * Built on first use (fields.ts): only a list route's own function ever parses its query.
 * `views`: the list takes `view` (tickets: their records are details unless `view=summary`).
 */
export const listQuery = (
  searches: SearchSchemas,
  options: { views?: true } = {},
): z.ZodMiniType<ListQueryInput> =>
  z.lazy(() => {
    const names = Object.keys(searches);
    const shape: Record<string, z.ZodMiniType> = {
      page: z._default(pageNumber, 1),
      cursor: z.optional(cursorText),
      ...(options.views ? { view: z.optional(listView) } : {}),
    };
    for (const name of names) shape[name] = z.optional(searches[name] as z.ZodMiniType<string, string>);
    return z.strictObject(shape).check(
      z.refine((q) => names.filter((name) => q[name] !== undefined).length <= 1, {
        message: 'search by one field at a time',
      }),
    );
  }) as unknown as z.ZodMiniType<ListQueryInput>;
