import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceMapOf } from '../shared/observability/source-stack';

/**
 * `npm run bench -- --only=throughput --profile`: where the product server's CPU time goes. The
 * server child runs with `--cpu-prof`; each sample is charged to its *owner*, the innermost frame
 * on its stack that is our code (a file of shared/, local/ or functions/) or a package's (its npm
 * name). Node's own frames (the HTTP parser, streams, JSON, crypto) are charged to the JS frame
 * that called them, so `JSON.stringify` in a view counts to that view. Garbage collection and
 * V8's `(program)` are their own rows; `(idle)` is left out. The servers run a bundle
 * (throughput.ts): a frame in it is placed through the bundle's source map.
 */
interface CallFrame {
  url: string;
  functionName: string;
  lineNumber: number;
  columnNumber: number;
}

interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

const root = fileURLToPath(new URL('..', import.meta.url));

/** The file a frame's code came from: through the source map of a bundle. */
const sourceOf = (frame: CallFrame): string => {
  const path = fileURLToPath(frame.url);
  const entry = sourceMapOf(path)?.findEntry(frame.lineNumber, frame.columnNumber) as
    | { originalSource?: string }
    | undefined;
  if (!entry?.originalSource) return path;
  const source = entry.originalSource;
  return source.startsWith('file://') ? fileURLToPath(source) : resolve(dirname(path), source);
};

const ownerOf = (frame: CallFrame | undefined): string | undefined => {
  if (!frame?.url.startsWith('file://')) return undefined;
  const path = sourceOf(frame);
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1];
  if (pkg) return pkg;
  return relative(root, path);
};

/** Each owner's CPU milliseconds per request in the profiles of `dir`, for `requests` requests served. */
const perRequest = (dir: string, requests: number): Map<string, number> => {
  const byOwner = new Map<string, number>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    const owners = new Map<number, string>();
    const owner = (id: number): string => {
      const known = owners.get(id);
      if (known) return known;
      const frame = nodes.get(id)?.callFrame;
      const name = frame?.functionName ?? '';
      let found = ownerOf(frame);
      if (!found && ['(garbage collector)', '(program)', '(idle)'].includes(name)) found = name;
      if (!found) {
        const up = parent.get(id);
        found = up === undefined ? '(node)' : owner(up);
      }
      owners.set(id, found);
      return found;
    };
    profile.samples.forEach((id, i) => {
      const o = owner(id);
      byOwner.set(o, (byOwner.get(o) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    });
  }
  byOwner.delete('(idle)');
  return new Map([...byOwner].map(([owner, ms]) => [owner, ms / requests]));
};

/** Per owner: CPU ms per request of the product server and of the bare one, largest difference first. */
export const compareProfiles = (
  dir: string,
  served: { product: number; bare: number },
  top = 30,
): { owner: string; product: number; bare: number }[] => {
  const product = perRequest(join(dir, 'product'), served.product);
  const bare = perRequest(join(dir, 'bare'), served.bare);
  const rows = [...new Set([...product.keys(), ...bare.keys()])].map((owner) => ({
    owner,
    product: product.get(owner) ?? 0,
    bare: bare.get(owner) ?? 0,
  }));
  const total = (pick: (r: { product: number; bare: number }) => number) =>
    rows.reduce((a, r) => a + pick(r), 0);
  return [
    { owner: '(all busy CPU)', product: total((r) => r.product), bare: total((r) => r.bare) },
    ...rows.sort((a, b) => b.product - b.bare - (a.product - a.bare)).slice(0, top),
  ];
};
