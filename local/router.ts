import { type Route, routes } from '../shared/routes';

/**
 * Matches a request against the route table the way API Gateway HTTP APIs do: a literal
 * segment beats a `{param}` segment, leftmost first (`/ticket/list` never matches `/ticket/{id}`),
 * and a parameter never matches an empty segment.
 */
export interface RouteMatch {
  readonly route: Route;
  /** URL-decoded values, keyed by the `{name}` in the route's path. */
  readonly pathParameters: Record<string, string>;
}

type Segment = { readonly literal: string } | { readonly param: string };

interface CompiledRoute {
  readonly route: Route;
  readonly segments: readonly Segment[];
}

const compile = (route: Route): CompiledRoute => ({
  route,
  segments: route.path
    .split('/')
    .slice(1)
    .map((s): Segment => (s.startsWith('{') && s.endsWith('}') ? { param: s.slice(1, -1) } : { literal: s })),
});

const table: readonly CompiledRoute[] = routes.map(compile);

const decode = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // malformed escape: pass it through, the handler will not find such an id
  }
};

export const matchRoute = (method: string, path: string): RouteMatch | undefined => {
  const parts = path.split('/').slice(1);
  let best: { match: RouteMatch; specificity: string } | undefined;
  for (const { route, segments } of table) {
    if (route.method !== method.toUpperCase() || segments.length !== parts.length) continue;
    const pathParameters: Record<string, string> = {};
    let specificity = '';
    const matches = segments.every((segment, i) => {
      const part = parts[i] ?? '';
      if ('literal' in segment) {
        specificity += '1';
        return segment.literal === part;
      }
      specificity += '0';
      pathParameters[segment.param] = decode(part);
      return part !== '';
    });
    // '1' (literal) > '0' (param) position by position: the most specific route wins.
    if (matches && (!best || specificity > best.specificity)) {
      best = { match: { route, pathParameters }, specificity };
    }
  }
  return best?.match;
};
