import type { BuildOptions } from 'esbuild';

/**
 * The esbuild options of the deployed functions, as infra/api-function.ts gives them to CDK's
 * NodejsFunction (which runs esbuild with exactly these): ESM, minified, node24, SDK bundled,
 * linked source map without sources, the createRequire banner. Keep in sync with that file
 * (it cannot be imported here without loading aws-cdk-lib).
 */
export const ESM_REQUIRE_SHIM =
  "import { createRequire as topLevelCreateRequire } from 'node:module';" +
  'const require = topLevelCreateRequire(import.meta.url);';

export const deployedBundleOptions: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  mainFields: ['module', 'main'],
  external: [],
  banner: { js: ESM_REQUIRE_SHIM },
  outExtension: { '.js': '.mjs' },
  logLevel: 'warning',
};

/** The deployed functions run with NODE_OPTIONS=--enable-source-maps (infra/api-function.ts). */
export const DEPLOYED_NODE_FLAGS = ['--enable-source-maps'];
