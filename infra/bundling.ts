import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';

/**
 * How every function is bundled and started: the one source of these settings.
 * infra/api-function.ts hands them to CDK's NodejsFunction; the benchmark (bench/cold-start.ts)
 * builds the same bundles from them with esbuildOptions(). Imports nothing from aws-cdk-lib,
 * so the benchmark can load it without the CDK.
 */

// ESM bundles have no `require`; esbuild's shim for CommonJS dependencies looks for one at runtime.
export const ESM_REQUIRE_SHIM =
  "import { createRequire as topLevelCreateRequire } from 'node:module';" +
  'const require = topLevelCreateRequire(import.meta.url);';

/** The subset of NodejsFunction's `bundling` props we set, in its names (see api-function.ts). */
export interface FunctionBundling {
  readonly format: 'esm' | 'cjs';
  readonly target: string;
  readonly minify: boolean;
  readonly sourceMap: boolean;
  readonly sourcesContent: boolean;
  readonly mainFields: readonly string[];
  readonly externalModules: readonly string[];
  readonly banner: string;
  /** Identifiers esbuild replaces with constants: TRACING_DEFINE below. */
  readonly define: Readonly<Record<string, string>>;
  /** Modules bundled in place of others (absolute paths): LAMBDA_CREDENTIALS and HTTP_BUILTINS below. */
  readonly alias: Readonly<Record<string, string>>;
}

/**
 * In a function the SDK's credentials are the role's, from the environment: the default
 * provider chain is replaced by shared/aws/lambda-credentials.ts (~80 KB less in every bundle).
 */
export const LAMBDA_CREDENTIALS = {
  '@aws-sdk/credential-provider-node': fileURLToPath(
    new URL('../shared/aws/lambda-credentials.ts', import.meta.url),
  ),
};

/**
 * `node:http` and `node:https` come from the runtime's CommonJS modules (shared/aws/node-http.ts):
 * an ES import of `node:http` alone cost ~45 ms of every cold start.
 */
const httpShim = fileURLToPath(new URL('../shared/aws/node-http.ts', import.meta.url));
const httpsShim = fileURLToPath(new URL('../shared/aws/node-https.ts', import.meta.url));
export const HTTP_BUILTINS = {
  'node:http': httpShim,
  http: httpShim,
  'node:https': httpsShim,
  https: httpsShim,
};

/**
 * What shared/observability/tracing.ts tests to load Powertools Tracer. esbuild replaces it with a
 * string literal in every bundle, so the test folds to a constant and, without tracing, the
 * tracer's dynamic import is dead code that is not bundled at all (~125 KB of the X-Ray SDK and
 * its dependencies). Unbundled (the local server, the tests) it is an ordinary, unset variable.
 */
export const TRACING_DEFINE = 'process.env.HELPDESK_TRACING';

export const FUNCTION_BUNDLING: FunctionBundling = {
  format: 'esm',
  target: 'node24',
  minify: true,
  sourceMap: true,
  // Stack traces need only the mappings; embedded sources would triple the package.
  sourcesContent: false,
  mainFields: ['module', 'main'],
  // The runtime's bundled SDK version drifts; ours is pinned and tree-shaken. PGlite, the local
  // search engine (search/pglite-engine.ts), is never loaded in AWS, where the index is Aurora.
  externalModules: ['@electric-sql/pglite', '@electric-sql/pglite/*'],
  banner: ESM_REQUIRE_SHIM,
  define: { [TRACING_DEFINE]: JSON.stringify('false') },
  alias: { ...LAMBDA_CREDENTIALS, ...HTTP_BUILTINS },
};

/**
 * The settings of a function with or without X-Ray tracing (`-c tracing=true`,
 * infra/stack-context.ts): the same but for the tracing constant.
 */
export const functionBundling = ({ tracing }: { tracing: boolean }): FunctionBundling => ({
  ...FUNCTION_BUNDLING,
  define: { ...FUNCTION_BUNDLING.define, [TRACING_DEFINE]: JSON.stringify(String(tracing)) },
});

/**
 * Functions start without `--enable-source-maps`: reading and parsing the map of the whole bundle
 * at every start cost a third of a cold start. The map ships beside the bundle, and error log lines
 * map their stacks through it when one is written (shared/observability/source-stack.ts).
 */

/**
 * The esbuild options NodejsFunction runs esbuild with for these props (aws-lambda-nodejs
 * buildEsbuildArgs: `--bundle --platform=node`, the props above, and an `index.mjs` outfile for ESM).
 */
export const esbuildOptions = (bundling: FunctionBundling = FUNCTION_BUNDLING): BuildOptions => ({
  bundle: true,
  platform: 'node',
  format: bundling.format,
  target: bundling.target,
  minify: bundling.minify,
  sourcemap: bundling.sourceMap,
  sourcesContent: bundling.sourcesContent,
  mainFields: [...bundling.mainFields],
  external: [...bundling.externalModules],
  banner: { js: bundling.banner },
  define: { ...bundling.define },
  alias: { ...bundling.alias },
  outExtension: { '.js': bundling.format === 'esm' ? '.mjs' : '.js' },
  logLevel: 'warning',
});
