import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * Stack traces in source terms, for error log lines: each frame in a bundle that has a source map
 * beside it (`index.mjs.map`, which every function ships) is rewritten to the original file, line
 * and column (`shared/store/dynamo.ts:42:11`). Functions used to start with `--enable-source-maps`,
 * which reads and parses the map of every bundle at start-up: a third of a cold start
 * (docs/performance.md). Here a map is read the first time an error is logged, and kept.
 * Frames without a map (node internals, the local server's TypeScript) are left as they are.
 */
const maps = new Map<string, SourceMap | undefined>();

/** The source map beside a bundle (`<file>.map`), read once; undefined when it has none. */
export const sourceMapOf = (file: string): SourceMap | undefined => {
  if (!maps.has(file)) {
    let map: SourceMap | undefined;
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      map = undefined;
    }
    maps.set(file, map);
  }
  return maps.get(file);
};

/** `<file>:<line>:<column>` of a bundle frame (a path or a file: URL), as V8 prints it. */
const FRAME = /((?:file:\/\/)?\/[^\s():]+\.m?js):(\d+):(\d+)/g;

/** Where the source of a mapped path lives relative to: the repository, as the bundler saw it. */
const sourcePath = (source: string): string => {
  const path = source.startsWith('file://') ? fileURLToPath(source) : source;
  const at = path.search(/(?:^|\/)(?:shared|functions|node_modules)\//);
  return at > 0 ? path.slice(at + 1) : path;
};

export const sourceStack = (stack: string): string =>
  stack.replace(FRAME, (frame, file: string, line: string, column: string) => {
    const map = sourceMapOf(file.startsWith('file://') ? fileURLToPath(file) : file);
    const entry = map?.findEntry(Number(line) - 1, Number(column) - 1) as
      | { originalSource?: string; originalLine?: number; originalColumn?: number }
      | undefined;
    if (!entry?.originalSource || entry.originalLine === undefined || entry.originalColumn === undefined) {
      return frame;
    }
    return `${sourcePath(entry.originalSource)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
