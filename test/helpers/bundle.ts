import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { esbuildOptions } from '../../infra/bundling';

const NODE_MODULES = fileURLToPath(new URL('../../node_modules', import.meta.url));

/**
 * Writes `source` to `<dir>/entry.ts` and bundles it the way the stack bundles a function
 * (infra/bundling.ts) into `<dir>/index.mjs`, with its source map; returns the bundle's path.
 * Packages resolve from the project although `dir` is elsewhere.
 */
export const bundleLikeAFunction = async (dir: string, source: string): Promise<string> => {
  writeFileSync(join(dir, 'entry.ts'), source);
  const outfile = join(dir, 'index.mjs');
  await build({
    ...esbuildOptions(),
    entryPoints: [join(dir, 'entry.ts')],
    outfile,
    absWorkingDir: dir,
    nodePaths: [NODE_MODULES],
  });
  return outfile;
};
