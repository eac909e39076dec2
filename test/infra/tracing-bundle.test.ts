import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AttributeType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiFunction } from '../../infra/api-function';

/**
 * `-c tracing=true` puts Powertools Tracer in the bundle, and only then: one function packaged
 * by CDK (esbuild through NodejsFunction, as `cdk synth` does) with the switch off and on. The
 * tracer module sets AWS_XRAY_CONTEXT_MISSING when it loads; the X-Ray SDK names itself.
 */
const outdirs: string[] = [];
afterAll(() => {
  for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
});

const packaged = (tracing: boolean | undefined, context: Record<string, string> = {}): string => {
  const outdir = mkdtempSync(join(tmpdir(), 'helpdesk-tracing-'));
  outdirs.push(outdir);
  const app = new App({ outdir, context: { 'aws:cdk:enable-asset-metadata': true, ...context } });
  const stack = new Stack(app, 'Tracing');
  const table = new TableV2(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
  const fn = new ApiFunction(stack, 'Fn', {
    handlerFile: 'ticket-detail',
    table,
    tableAccess: 'read',
    rateLimited: true,
    logRetention: RetentionDays.ONE_DAY,
    removalPolicy: RemovalPolicy.DESTROY,
    ...(tracing === undefined ? {} : { tracing }),
  });
  app.synth();
  const template = JSON.parse(readFileSync(join(outdir, 'Tracing.template.json'), 'utf8'));
  const resource = template.Resources[stack.getLogicalId(fn.node.defaultChild as never)];
  return join(outdir, resource.Metadata['aws:asset:path'], 'index.mjs');
};

const TRACER_MARKERS = ['AWS_XRAY_CONTEXT_MISSING', 'aws-xray-sdk'];

describe('the tracer in a bundle', () => {
  it('is absent without the switch', () => {
    const bundle = packaged(undefined);
    const code = readFileSync(bundle, 'utf8');
    for (const marker of TRACER_MARKERS) expect(code).not.toContain(marker);
    expect(statSync(bundle).size).toBeLessThan(500_000);
  }, 120_000);

  it('is in with -c tracing=true (or the function’s own `tracing`), which costs over 100 KB', () => {
    const plain = statSync(packaged(false)).size;
    const fromContext = packaged(undefined, { tracing: 'true' });
    const code = readFileSync(fromContext, 'utf8');
    for (const marker of TRACER_MARKERS) expect(code).toContain(marker);
    expect(statSync(fromContext).size - plain).toBeGreaterThan(100_000);
    expect(statSync(packaged(true)).size).toBe(statSync(fromContext).size);
  }, 180_000);
});

describe('the packaged bundle', () => {
  it('takes node:http and node:https from the runtime, never by an ES import (its facade cost ~45 ms)', () => {
    const code = readFileSync(packaged(undefined), 'utf8');
    expect(code).not.toMatch(/from\s*["']node:https?["']/);
    expect(code).not.toMatch(/from\s*["']https?["']/);
    expect(code).toContain('process.getBuiltinModule("node:http")');
    expect(code).toContain('process.getBuiltinModule("node:https")');
  }, 120_000);

  it('ships its source map beside it, for error lines to map their stacks', () => {
    const bundle = packaged(undefined);
    expect(existsSync(`${bundle}.map`)).toBe(true);
    expect(readFileSync(bundle, 'utf8')).toContain('//# sourceMappingURL=index.mjs.map');
  }, 120_000);
});
