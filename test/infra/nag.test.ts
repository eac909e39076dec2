import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { buildHelpdeskStack } from '../../infra/app';
import { HelpdeskStack } from '../../infra/helpdesk-stack';
import { readStackContext } from '../../infra/stack-context';

// cdk-nag 3 is a policy-validation plugin: findings do not become annotations (so
// Annotations.findError/findWarning would find nothing either way); they fail `app.synth()`
// and can be read directly from the pack with validateScope().

const CONTEXT = { 'aws:cdk:bundling-stacks': [], removalPolicy: 'destroy', deletionProtection: 'false' };

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

  it('acknowledges only findings that exist, each with a reason', () => {
    // The same stack without acknowledgments shows what the pack really reports.
    const bareApp = new App({ context: CONTEXT });
    const bare = new HelpdeskStack(bareApp, 'Helpdesk-dev', { settings: readStackContext(bareApp.node) });
    const raw = findings(bare).all.flatMap((v) =>
      v.violatingResources.map((r) => ({ rule: v.ruleName, path: r.constructPath ?? '' })),
    );
    expect(raw.length).toBeGreaterThan(0);

    const stack = buildHelpdeskStack(new App({ context: CONTEXT }));
    const acknowledged = stack.node.findAll().flatMap((c) =>
      c.node.metadata
        .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
        .flatMap((m) => Object.entries(m.data as Record<string, string>))
        .map(([id, reason]) => ({ rule: id.replace(/^annotation::/i, ''), path: c.node.path, reason })),
    );
    expect(acknowledged.length).toBeGreaterThan(0);
    const stale = acknowledged.filter(
      (a) => !raw.some((f) => f.rule === a.rule && (f.path === a.path || f.path.startsWith(`${a.path}/`))),
    );
    expect(stale.map((a) => `${a.rule} @ ${a.path}`)).toEqual([]);
    for (const a of acknowledged) expect(a.reason.length, a.rule).toBeGreaterThan(20);
  });
});
