import { fromEnv } from '@aws-sdk/credential-provider-env';

/**
 * The SDK clients' credentials inside Lambda: the function role's, which the runtime puts in
 * the environment. Bundles use this module in place of `@aws-sdk/credential-provider-node`
 * (infra/bundling.ts `alias`): the default chain would also carry the SSO, STS web-identity,
 * login, process and shared-file providers and their nested clients (~80 KB of every bundle)
 * that a function never uses. Unbundled code (the local server, tests, the CLI) keeps the
 * default chain.
 */
export const defaultProvider = (init?: Parameters<typeof fromEnv>[0]) => fromEnv(init);
