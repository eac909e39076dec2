import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { buildHelpdeskStack, buildHelpdeskStacks } from '../../infra/app';
import { HelpdeskStack } from '../../infra/helpdesk-stack';
import { RegionalStack, readRegionsContext, regionalStackName } from '../../infra/regions';
import { readStackContext } from '../../infra/stack-context';
import { acknowledgedIn } from './acknowledged';

// cdk-nag 3 is a policy-validation plugin: findings do not become annotations (so
// Annotations.findError/findWarning would find nothing either way); they fail `app.synth()`
// and can be read directly from the pack with validateScope().

const CONTEXT = { 'aws:cdk:bundling-stacks': [], removalPolicy: 'destroy', deletionProtection: 'false' };
const certificate = (region: string) => `arn:aws:acm:${region}:123456789012:certificate/c-${region}`;
/** Several regions (infra/regions.ts): every stack is checked, with all the optional parts. */
const REGIONS = {
  ...CONTEXT,
  regions: 'us-east-1,eu-west-1,ap-southeast-2',
  newRegions: 'ap-southeast-2',
  domainName: 'api.example.com',
  hostedZoneId: 'Z0123456789ABC',
  hostedZoneName: 'example.com',
  certificateArns: JSON.stringify({
    'us-east-1': certificate('us-east-1'),
    'eu-west-1': certificate('eu-west-1'),
    'ap-southeast-2': certificate('ap-southeast-2'),
  }),
};

/** The stacks buildHelpdeskStacks builds for `context`, without its acknowledgments. */
const bareStacks = (context: Record<string, unknown>): HelpdeskStack[] => {
  const app = new App({ context });
  const settings = readStackContext(app.node);
  const regions = readRegionsContext(app.node);
  if (!regions) return [new HelpdeskStack(app, `Helpdesk-${settings.stage}`, { settings })];
  return regions.regions.map(
    (region) =>
      new HelpdeskStack(app, regionalStackName(settings.stage, region), {
        settings,
        env: { region },
        regional: new RegionalStack(regions, settings.stage, region),
      }),
  );
};

/** `rule @ path` of every finding the pack reports under `scope`, by severity. */
const findings = (scope: HelpdeskStack) => {
  const report = new AwsSolutionsChecks(undefined, { verbose: true }).validateScope(scope);
  const list = (severity: string) =>
    report.violations
      .filter((v) => v.severity === severity)
      .flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} @ ${r.constructPath}`));
  return { errors: list('error'), warnings: list('warning'), all: report.violations };
};

describe('cdk-nag AwsSolutions', () => {
  it('leaves no unacknowledged error or warning', () => {
    const stack = buildHelpdeskStack(new App({ context: CONTEXT }));
    const { errors, warnings } = findings(stack);
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('leaves no unacknowledged error or warning in any stack of several regions', () => {
    const stacks = buildHelpdeskStacks(new App({ context: REGIONS }));
    expect(stacks).toHaveLength(3);
    for (const stack of stacks) {
      const { errors, warnings } = findings(stack);
      expect(errors, stack.stackName).toEqual([]);
      expect(warnings, stack.stackName).toEqual([]);
    }
  });

  it('runs at synthesis and writes an empty validation report', () => {
    const app = new App({ context: CONTEXT });
    buildHelpdeskStack(app);
    const assembly = app.synth();
    const report = JSON.parse(readFileSync(join(assembly.directory, 'validation-report.json'), 'utf8'));
    expect(report.pluginReports).toEqual([]);
  }, 120_000); // a full synthesis with cdk-nag over every stack

  it('fails synthesis on a finding nobody acknowledged', () => {
    const app = new App({ context: CONTEXT });
    const stack = buildHelpdeskStack(app);
    new Bucket(stack, 'Unreviewed');
    expect(() => app.synth()).toThrow(/AwsSolutions-S1/);
  });

  it.each([
    ['one region', CONTEXT],
    ['several regions', REGIONS],
  ])('acknowledges only findings that exist, each with a reason (%s)', (_, context) => {
    // The same stacks without acknowledgments show what the pack really reports.
    const raw = bareStacks(context).flatMap((bare) =>
      findings(bare).all.flatMap((v) =>
        v.violatingResources.map((r) => ({ rule: v.ruleName, path: r.constructPath ?? '' })),
      ),
    );
    expect(raw.length).toBeGreaterThan(0);

    const stacks = buildHelpdeskStacks(new App({ context }));
    const acknowledged = acknowledgedIn(stacks);
    expect(acknowledged.length).toBeGreaterThan(0);
    const stale = acknowledged.filter(
      (a) => !raw.some((f) => f.rule === a.rule && (f.path === a.path || f.path.startsWith(`${a.path}/`))),
    );
    expect(stale.map((a) => `${a.rule} @ ${a.path}`)).toEqual([]);
    for (const a of acknowledged) expect(a.reason.length, a.rule).toBeGreaterThan(20);
  });
});
