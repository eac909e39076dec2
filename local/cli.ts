/**
 * The operator CLI: `npm run --silent helpdesk -- client create|list|update|revoke|rehome`,
 * `reindex` (every item of a tenant into the current shape) and `cascades drain` (finish pending
 * cascades): docs/operations.md.
 * stdout carries only the JSON result lines (scripts parse them); everything else goes to stderr.
 *
 * Store: DYNAMODB_ENDPOINT if set; else TABLE_NAME in AWS (default credential chain);
 * else the local data dir (HELPDESK_DATA_DIR, default .helpdesk): the running `npm start`
 * store if there is one, otherwise a DynamoDB Local started for this command only.
 */

import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { ClientSettings } from '../shared/auth/clients';
import { COMPAT_PROFILES, type CompatProfile, DEFAULT_COMPAT, parseCompat } from '../shared/schemas/compat';
import { MAX_HISTORY_DAYS, MAX_TRASH_DAYS } from '../shared/store/entities/system';
import { isId } from '../shared/store/ids';
import { dataDir, dynamoDbPath, readRunningStore, searchDataDir, useCursorSecret } from './data-dir';
import { dynamoAnswers, localDynamoClient, startDynamoDbLocal } from './dynamodb-local';

const PROFILES = COMPAT_PROFILES.join('|');

/** A `--<flag> <days>` option: a whole number from `min` to `max`, or a usage error; undefined when absent. */
const daysOption = (
  value: string | undefined,
  flag: string,
  min: number,
  max: number,
): number | undefined => {
  if (value === undefined) return undefined;
  if (!/^\d{1,5}$/.test(value) || Number(value) < min || Number(value) > max)
    throw new UsageError(`client update --${flag} needs a whole number of days from ${min} to ${max}`);
  return Number(value);
};
const USAGE = `Usage:
  helpdesk client create --name <name> [--compat ${PROFILES}] [--home-region <region>]
                                            prints {"clientId","apiToken"} (the token only this once);
                                            the compatibility profile is ${DEFAULT_COMPAT} unless given;
                                            the home region (where its writes go) is the CLI's region unless given
  helpdesk client list                      prints one JSON line per client
  helpdesk client update --client-id <id> [--compat ${PROFILES}] [--trash-days <0-365>]
                        [--history-days <1-3650>]
                                            prints {"clientId",…} and what was set;
                                            --trash-days: how long deleted tickets stay in the trash
                                            (default 30; 0: a delete purges at once);
                                            --history-days: how long history entries are kept
                                            (default 730; entries written before keep theirs)
  helpdesk client revoke --client-id <id>   prints {"clientId","revoked":true}
  helpdesk client rehome --client-id <id> --region <region>
                                            moves its home (a regional outage: docs/regions.md);
                                            prints {"clientId","homeRegion"}
  helpdesk reindex [--tenant <id>] [--from <position>]
                                            rewrites every item of the tenant (of every client unless
                                            given) into the shape the current code writes; prints one
                                            line per tenant {"tenantId","itemsRead","itemsWritten",
                                            "countsMoved","skipped","complete"}; progress on stderr names
                                            a position to continue from (--from) after a crash or Ctrl-C
  helpdesk search reindex [--tenant <id>] [--from <position>]
                                            rebuilds the search index of the tenant (of every client
                                            unless given) from the table (docs/search.md); prints one
                                            line per tenant {"tenantId","customers","tickets","complete"};
                                            progress on stderr names a position to continue from (--from).
                                            Locally the index is the server's: run it with the server stopped
  helpdesk import convert zendesk|deskero <dir>
                                            writes an export (Zendesk's users, organizations, groups,
                                            tickets, comments, attachments/; or Deskero's or our list
                                            pages and details) as import lines, one JSON line each
                                            (docs/import.md); what could not be carried over as it was,
                                            and lines the format refuses, are named on stderr
  helpdesk import run <file> [--url <base URL>] [--api-token <token>]
                                            imports an NDJSON file (docs/import.md) through the API as
                                            the client of the apiToken (or HELPDESK_API_TOKEN), at the
                                            URL (or HELPDESK_URL, else http://localhost:3000): a job,
                                            its file uploaded, started and followed with a progress bar
                                            on stderr; prints the job as it ended, then each failed line;
                                            exit 0: every line applied, 2: some failed, 1: not completed
  helpdesk cascades drain [--tenant <id>]   finishes every pending cascade (a removal's leftovers: a
                                            removed ticket's items and files, unreferenced photos, a
                                            revoked client's tokens) of the tenant, or of every client;
                                            prints {"finished","failed":[{"tenantId","id","error"}]};
                                            exit 1 if any failed (run it again once the cause is fixed)
Store: DYNAMODB_ENDPOINT, else TABLE_NAME (AWS), else the local data dir HELPDESK_DATA_DIR (.helpdesk).`;

class UsageError extends Error {}

type Command =
  | { name: 'create'; clientName: string; compat: CompatProfile; homeRegion?: string }
  | { name: 'list' }
  | { name: 'update'; clientId: string; settings: ClientSettings }
  | { name: 'revoke'; clientId: string }
  | { name: 'rehome'; clientId: string; region: string }
  | { name: 'reindex'; tenantId?: string; from?: string }
  | { name: 'drain'; tenantId?: string }
  | { name: 'searchReindex'; tenantId?: string; from?: string }
  | { name: 'convert'; source: 'zendesk' | 'deskero'; dir: string }
  | { name: 'importRun'; file: string; url: string; apiToken: string };

const parseOptions = (argv: string[]) =>
  parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      'client-id': { type: 'string' },
      compat: { type: 'string' },
      'home-region': { type: 'string' },
      'trash-days': { type: 'string' },
      'history-days': { type: 'string' },
      region: { type: 'string' },
      tenant: { type: 'string' },
      from: { type: 'string' },
      url: { type: 'string' },
      'api-token': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });

const parseCommand = (argv: string[]): Command => {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { positionals, values } = parsed;
  if (values.help) throw new UsageError('');
  const [group, action, ...extra] = positionals;
  if (group === 'reindex' && action === undefined) return reindexCommand(values);
  if (group === 'import' && action === 'convert') return convertCommand(values, extra);
  if (group === 'import' && action === 'run') return importRunCommand(values, extra);
  if (group === 'cascades' && action === 'drain' && extra.length === 0) return drainCommand(values);
  if (group === 'search' && action === 'reindex' && extra.length === 0) {
    // The same options as reindex, checked the same way.
    const { tenantId, from } = reindexCommand(values) as Extract<Command, { name: 'reindex' }>;
    return { name: 'searchReindex', tenantId, from };
  }
  if (group !== 'client' || extra.length)
    throw new UsageError(`unknown command: ${positionals.join(' ') || '(none)'}`);
  const only = (allowed: string[]) => {
    const stray = Object.keys(values).filter((key) => !allowed.includes(key));
    if (stray.length) throw new UsageError(`client ${action} does not take --${stray.join(', --')}`);
  };
  const compat = (given: string | undefined): CompatProfile => {
    const profile = given === undefined ? undefined : parseCompat(given);
    if (!profile) throw new UsageError(`client ${action} needs --compat ${PROFILES}`);
    return profile;
  };
  const region = (given: string | undefined): string => {
    if (!given || !/^[a-z]{2}(-[a-z]+)+-\d{1,2}$/.test(given))
      throw new UsageError(`client ${action} needs a region name like us-east-1, not ${given ?? 'nothing'}`);
    return given;
  };
  switch (action) {
    case 'create':
      only(['name', 'compat', 'home-region']);
      if (!values.name?.trim()) throw new UsageError('client create needs --name <name>');
      return {
        name: 'create',
        clientName: values.name.trim(),
        compat: values.compat === undefined ? DEFAULT_COMPAT : compat(values.compat),
        ...(values['home-region'] === undefined ? {} : { homeRegion: region(values['home-region']) }),
      };
    case 'rehome':
      only(['client-id', 'region']);
      if (!values['client-id']) throw new UsageError('client rehome needs --client-id <id>');
      return { name: 'rehome', clientId: values['client-id'], region: region(values.region) };
    case 'list':
      only([]);
      return { name: 'list' };
    case 'update': {
      only(['client-id', 'compat', 'trash-days', 'history-days']);
      if (!values['client-id']) throw new UsageError('client update needs --client-id <id>');
      const trashDays = daysOption(values['trash-days'], 'trash-days', 0, MAX_TRASH_DAYS);
      const historyDays = daysOption(values['history-days'], 'history-days', 1, MAX_HISTORY_DAYS);
      if (values.compat === undefined && trashDays === undefined && historyDays === undefined)
        throw new UsageError(
          `client update needs --compat ${PROFILES}, --trash-days <days> or --history-days <days>`,
        );
      return {
        name: 'update',
        clientId: values['client-id'],
        settings: {
          ...(values.compat === undefined ? {} : { compat: compat(values.compat) }),
          ...(trashDays === undefined ? {} : { trashDays }),
          ...(historyDays === undefined ? {} : { historyDays }),
        },
      };
    }
    case 'revoke':
      only(['client-id']);
      if (!values['client-id']) throw new UsageError('client revoke needs --client-id <id>');
      return { name: 'revoke', clientId: values['client-id'] };
    default:
      throw new UsageError(`unknown command: client ${action ?? ''}`.trim());
  }
};

/** `reindex [--tenant <id>] [--from <position>]` (the position's form is checked once the store is open). */
const reindexCommand = (values: ReturnType<typeof parseOptions>['values']): Command => {
  const stray = Object.keys(values).filter((key) => key !== 'tenant' && key !== 'from');
  if (stray.length) throw new UsageError(`reindex does not take --${stray.join(', --')}`);
  if (values.tenant !== undefined && !isId(values.tenant))
    throw new UsageError(`reindex --tenant needs a client id, not ${values.tenant || 'nothing'}`);
  if (values.from !== undefined && !values.from) throw new UsageError('reindex --from needs a position');
  return { name: 'reindex', tenantId: values.tenant, from: values.from };
};

/** `import convert <zendesk|deskero> <dir>`. */
const convertCommand = (values: ReturnType<typeof parseOptions>['values'], args: string[]): Command => {
  const stray = Object.keys(values);
  if (stray.length) throw new UsageError(`import convert does not take --${stray.join(', --')}`);
  const [source, dir, ...more] = args;
  if ((source !== 'zendesk' && source !== 'deskero') || !dir || more.length)
    throw new UsageError(
      'import convert takes a source (zendesk or deskero) and the directory of its export',
    );
  return { name: 'convert', source, dir };
};

/** `import run <file> [--url <base URL>] [--api-token <token>]`. */
const importRunCommand = (values: ReturnType<typeof parseOptions>['values'], args: string[]): Command => {
  const stray = Object.keys(values).filter((key) => key !== 'url' && key !== 'api-token');
  if (stray.length) throw new UsageError(`import run does not take --${stray.join(', --')}`);
  const [file, ...more] = args;
  if (!file || more.length) throw new UsageError('import run takes the path of one NDJSON file');
  const apiToken = values['api-token'] ?? process.env.HELPDESK_API_TOKEN;
  if (!apiToken)
    throw new UsageError('import run needs --api-token (or HELPDESK_API_TOKEN): the client to import into');
  const url = values.url ?? process.env.HELPDESK_URL ?? 'http://localhost:3000';
  if (!URL.canParse(url)) throw new UsageError(`import run --url needs the API's base URL, not ${url}`);
  return { name: 'importRun', file, url, apiToken };
};

/** `cascades drain [--tenant <id>]`. */
const drainCommand = (values: ReturnType<typeof parseOptions>['values']): Command => {
  const stray = Object.keys(values).filter((key) => key !== 'tenant');
  if (stray.length) throw new UsageError(`cascades drain does not take --${stray.join(', --')}`);
  if (values.tenant !== undefined && !isId(values.tenant))
    throw new UsageError(`cascades drain --tenant needs a client id, not ${values.tenant || 'nothing'}`);
  return { name: 'drain', tenantId: values.tenant };
};

/**
 * Rewrites every item of the tenants into the current shape (store/migrations/reindex.ts), each
 * at its home replica; one line per tenant. Ctrl-C stops after the page being rewritten, and the
 * line says where to resume. Exit 1 unless every tenant was walked with nothing skipped.
 */
const reindex = async (
  command: Extract<Command, { name: 'reindex' }>,
  print: (value: unknown) => void,
): Promise<number> => {
  const { indexMismatch, parsePosition, reindexTenant } = await import('../shared/store/migrations/reindex');
  const { homeOf, listClients } = await import('../shared/auth/clients');
  const { readClientItem } = await import('../shared/store/client-items');
  const { useHome, useRegion, withRegionScope } = await import('../shared/store/store-region');
  const { tableIndexes } = await import('../shared/store/create-table');
  const { config } = await import('../shared/config');
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  const client = endpoint ? localDynamoClient(endpoint) : new DynamoDBClient({});
  try {
    const mismatch = indexMismatch(await tableIndexes(client, config().TABLE_NAME));
    if (mismatch) throw new UsageError(`reindex cannot run now: ${mismatch}`);
  } finally {
    client.destroy();
  }
  const from = command.from === undefined ? undefined : parsePosition(command.from);
  if (command.from !== undefined && (!from || (command.tenantId && from.tenantId !== command.tenantId)))
    throw new UsageError(`--from takes a position reindex printed for the tenant, not ${command.from}`);
  let tenants: { clientId: string; homeRegion: string }[];
  if (command.tenantId) {
    const item = await readClientItem(command.tenantId);
    if (!item) {
      const { NotFound } = await import('../shared/store/errors');
      throw new NotFound(`Client ${command.tenantId}`);
    }
    tenants = [{ clientId: command.tenantId, homeRegion: homeOf(item) }];
  } else {
    // A stable order, so that --from skips the tenants already done.
    tenants = (await listClients()).sort((a, b) => (a.clientId < b.clientId ? -1 : 1));
  }
  const stop = new AbortController();
  const interrupt = () => stop.abort();
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  let said = 0;
  const progress = (position: string, r: { itemsRead: number; itemsWritten: number }) => {
    if (Date.now() - said < 2000) return;
    said = Date.now();
    console.error(`helpdesk: reindex at ${position} (read ${r.itemsRead}, wrote ${r.itemsWritten})`);
  };
  try {
    let exit = 0;
    for (const { clientId, homeRegion } of tenants) {
      if (from && clientId < from.tenantId) continue;
      const report = await withRegionScope(() => {
        // Its home replica: the conditions of its writes are evaluated where its API writes go.
        useRegion(homeRegion);
        useHome(homeRegion, clientId);
        return reindexTenant(clientId, {
          ...(from?.tenantId === clientId ? { from: command.from } : {}),
          signal: stop.signal,
          onProgress: progress,
        });
      });
      print(report);
      if (!report.complete || report.skipped.length > 0) exit = 1;
      if (!report.complete) break;
    }
    return exit;
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
  }
};

/**
 * Rebuilds the search index of the tenants from the table (shared/search/rebuild.ts): Aurora in
 * AWS (SEARCH_CLUSTER_ARN), else the local PGlite index under the data dir, which only one process
 * may open: refused while `npm start` runs on it (which rebuilds an empty index itself).
 */
const searchReindex = async (
  command: Extract<Command, { name: 'searchReindex' }>,
  print: (value: unknown) => void,
): Promise<number> => {
  if (!process.env.SEARCH_CLUSTER_ARN) {
    const dir = dataDir();
    if (readRunningStore(dir))
      throw new UsageError(
        `the local search index belongs to the running server (${dir}): stop it, then run search reindex`,
      );
    process.env.SEARCH_DATA_DIR ??= searchDataDir(dir);
    // The store was opened first: read the configuration again, with the index's place.
    (await import('../shared/config')).resetConfig();
  }
  const { parseRebuildPosition, rebuildTenant, tenantIds } = await import('../shared/search/rebuild');
  const { searchEngine, closeSearchEngine } = await import('../shared/search/engine');
  const from = command.from === undefined ? undefined : parseRebuildPosition(command.from);
  if (command.from !== undefined && (!from || (command.tenantId && from.tenantId !== command.tenantId)))
    throw new UsageError(`--from takes a position search reindex printed, not ${command.from}`);
  const tenants = command.tenantId ? [command.tenantId] : await tenantIds();
  const stop = new AbortController();
  const interrupt = () => stop.abort();
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  let said = 0;
  try {
    const engine = await searchEngine();
    for (const tenantId of tenants) {
      if (from && tenantId < from.tenantId) continue;
      const report = await rebuildTenant(engine, tenantId, {
        ...(from?.tenantId === tenantId ? { from: command.from } : {}),
        signal: stop.signal,
        onProgress: (position) => {
          if (Date.now() - said < 2000) return;
          said = Date.now();
          console.error(`helpdesk: search reindex at ${position}`);
        },
      });
      print(report);
      if (!report.complete) return 1;
    }
    return 0;
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    await closeSearchEngine();
  }
};

/** Points the environment at the store to use; returns what to undo afterwards. */
const openStore = async (): Promise<() => Promise<void>> => {
  let endpoint = process.env.DYNAMODB_ENDPOINT;
  let stop = async () => {};
  if (!endpoint) {
    if (process.env.TABLE_NAME) return stop; // AWS: the stack owns the table
    const dir = dataDir();
    useCursorSecret(dir);
    const running = readRunningStore(dir);
    if (running && (await dynamoAnswers(running.endpoint))) {
      endpoint = running.endpoint;
    } else {
      const dynamo = await startDynamoDbLocal({ dbPath: dynamoDbPath(dir), shortLived: true });
      endpoint = dynamo.endpoint;
      stop = () => dynamo.stop();
    }
    process.env.DYNAMODB_ENDPOINT = endpoint;
  }
  const { config } = await import('../shared/config');
  const { ensureTable } = await import('../shared/store/create-table');
  const client = localDynamoClient(endpoint);
  try {
    await ensureTable(client, config().TABLE_NAME);
  } catch (error) {
    await stop();
    throw error;
  } finally {
    client.destroy();
  }
  return stop;
};

/** Runs the command; returns the process exit code. */
const run = async (command: Command, print: (value: unknown) => void): Promise<number> => {
  if (command.name === 'convert' || command.name === 'importRun')
    throw new Error('import convert and import run open no store: main runs them');
  if (command.name === 'reindex') return reindex(command, print);
  if (command.name === 'searchReindex') return searchReindex(command, print);
  if (command.name === 'drain') {
    const { drainCascades } = await import('../shared/domain/cascades');
    const { renderExport } = await import('../shared/http/views/customer-export');
    const outcome = await drainCascades(renderExport, command.tenantId);
    print(outcome);
    return outcome.failed.length > 0 ? 1 : 0;
  }
  const clients = await import('../shared/auth/clients');
  // Several regions (REGIONS): a home must be one of the deployment's.
  const home =
    command.name === 'rehome' ? command.region : command.name === 'create' ? command.homeRegion : undefined;
  const { config } = await import('../shared/config');
  const deployed = config().REGIONS?.split(',');
  if (home && deployed && !deployed.includes(home))
    throw new UsageError(`region ${home} is not one of this deployment's (REGIONS=${deployed.join(',')})`);
  switch (command.name) {
    case 'create': {
      const { createClient } = await import('../shared/domain/new-client');
      const { clientId, apiToken } = await createClient(
        command.clientName,
        command.compat,
        command.homeRegion,
      );
      print({ clientId, apiToken });
      return 0;
    }
    case 'list':
      for (const client of await clients.listClients()) print(client);
      return 0;
    case 'update': {
      if (!(await clients.setClientSettings(command.clientId, command.settings))) {
        const { NotFound } = await import('../shared/store/errors');
        throw new NotFound(`Client ${command.clientId}`);
      }
      print({ clientId: command.clientId, ...command.settings });
      return 0;
    }
    case 'revoke': {
      if (!(await clients.revokeClient(command.clientId))) {
        const { NotFound } = await import('../shared/store/errors');
        throw new NotFound(`Client ${command.clientId}`);
      }
      print({ clientId: command.clientId, revoked: true });
      return 0;
    }
    case 'rehome': {
      const outcome = await clients.rehomeClient(command.clientId, command.region);
      if (!outcome) {
        const { NotFound } = await import('../shared/store/errors');
        throw new NotFound(`Client ${command.clientId}`);
      }
      // oldHomeFenced false: the old home could not be told (docs/regions.md says what that means).
      print({
        clientId: command.clientId,
        homeRegion: command.region,
        ...outcome,
        writesFrom: new Date(outcome.writesFrom).toISOString(),
      });
      return 0;
    }
  }
};

const main = async (): Promise<number> => {
  // Keep stdout for results only: anything else that writes to it (an SDK warning, a logger
  // in the store code) is sent to stderr instead.
  const stdoutWrite = process.stdout.write.bind(process.stdout);
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  const print = (value: unknown) => stdoutWrite(`${JSON.stringify(value)}\n`);

  let command: Command;
  try {
    command = parseCommand(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (error.message) console.error(`helpdesk: ${error.message}`);
    console.error(USAGE);
    return error.message ? 2 : 0;
  }
  // A conversion reads files and writes lines: no store.
  if (command.name === 'convert') {
    const { convertToLines } = await import('./import/convert');
    return convertToLines(command.source, command.dir, print);
  }
  // An import goes through the API, as an integrator's would: no store of its own.
  if (command.name === 'importRun') {
    const { runImport } = await import('./import/run');
    return runImport(command, print);
  }
  const closeStore = await openStore();
  try {
    return await run(command, print);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`helpdesk: ${error.message}`);
      return 2;
    }
    // The same problem+json the API would answer (a DomainError such as an unknown client).
    const { DomainError } = await import('../shared/store/errors');
    if (!(error instanceof DomainError)) throw error;
    const { toHttpError, problemBody } = await import('../shared/http/problem-response');
    console.error(JSON.stringify(problemBody(toHttpError(error))));
    return 1;
  } finally {
    const { resetDb } = await import('../shared/store/dynamo');
    resetDb(); // close pooled sockets so the process can end
    await closeStore();
  }
};

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`helpdesk: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
