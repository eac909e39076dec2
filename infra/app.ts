import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { App, type Environment, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { HelpdeskStack } from './helpdesk-stack';
import { acknowledgeNagFindings } from './nag-suppressions';
import { RegionalStack, readRegionsContext, regionalStackName } from './regions';
import { readStackContext, type StackContext } from './stack-context';

const build = (
  app: App,
  id: string,
  settings: StackContext,
  extra: { env?: Environment; regional?: RegionalStack } = {},
): HelpdeskStack => {
  const stack = new HelpdeskStack(app, id, {
    settings,
    description: `Deskero-compatible help-desk API (${settings.stage}${extra.regional ? `, ${extra.regional.region}` : ''})`,
    ...extra,
  });
  Tags.of(stack).add('service', 'helpdesk');
  Tags.of(stack).add('stage', settings.stage);
  acknowledgeNagFindings(stack);
  return stack;
};

/**
 * Every stack of the app's context; the tests call it with their own App.
 * - Without `regions`: `Helpdesk-<stage>`, one region-agnostic stack (deployed where the CLI points).
 * - `-c regions=<r>` (one region): the same stack, pinned to that region (explicit `env`).
 * - `-c regions=<a>,<b>[,…] [-c primaryRegion=<a>]`: `Helpdesk-<stage>-<region>` for each region,
 *   each pinned to its region; the primary's first, the others depending on it (infra/regions.ts).
 *
 * cdk-nag's AWS Solutions pack runs at synthesis (cdk-nag 3 is a policy-validation plugin, not an
 * aspect): any finding not acknowledged in nag-suppressions.ts fails `cdk synth` and the tests.
 */
export const buildHelpdeskStacks = (app: App): HelpdeskStack[] => {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  // Regions first: they refuse the adoption keys (existingTableName…) before those are parsed.
  const regions = readRegionsContext(app.node);
  const settings = readStackContext(app.node);
  const single = `Helpdesk-${settings.stage}`;
  if (!regions) return [build(app, single, settings)];
  const envOf = (region: string): Environment => ({ account: regions.account, region });
  if (regions.regions.length === 1)
    return [build(app, single, settings, { env: envOf(regions.primaryRegion) })];

  const ordered = [regions.primaryRegion, ...regions.regions.filter((r) => r !== regions.primaryRegion)];
  const [primary, ...others] = ordered.map((region) =>
    build(app, regionalStackName(settings.stage, region), settings, {
      env: envOf(region),
      regional: new RegionalStack(regions, settings.stage, region),
    }),
  );
  // The replicas of the table and of the secret, which the others reference, come with the primary.
  for (const stack of others)
    stack.addStackDependency(primary as HelpdeskStack, 'the replicas it references');
  return [primary as HelpdeskStack, ...others];
};

/** The one stack of a deployment without `regions` (or with one region): what most tests build. */
export const buildHelpdeskStack = (app: App): HelpdeskStack => {
  const stacks = buildHelpdeskStacks(app);
  if (stacks.length !== 1)
    throw new Error(`${stacks.length} stacks (context 'regions'): use buildHelpdeskStacks`);
  return stacks[0] as HelpdeskStack;
};

// Importing this module (tests) must not build a second App with real bundling.
const entry = process.argv[1];
const isEntryPoint =
  entry !== undefined && realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
if (isEntryPoint) buildHelpdeskStacks(new App());
