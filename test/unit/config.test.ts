import { afterEach, describe, expect, it } from 'vitest';
import { config, resetConfig } from '../../shared/config';

const saved = { ...process.env };
const withEnv = (env: Record<string, string | undefined>) => {
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetConfig();
  return config;
};

afterEach(() => {
  process.env = { ...saved };
  resetConfig();
});

describe('config', () => {
  it('applies defaults and converts numbers, flags and port lists', () => {
    const c = withEnv({
      RATE_LIMIT_PER_MINUTE: undefined,
      REGION_HOMING: undefined,
      TOKEN_TTL_SECONDS: '120',
      WEBHOOK_ALLOW_LOCAL_HTTP: 'YES',
      WEBHOOK_LOCAL_PORTS: ' 8080, 9000 - 9002 ',
      INDEX_MIGRATION_STEP: undefined,
    })();
    expect(c.RATE_LIMIT_PER_MINUTE).toBe(1200);
    expect(c.REGION_HOMING).toBe(true);
    expect(c.TOKEN_TTL_SECONDS).toBe(120);
    expect(c.WEBHOOK_ALLOW_LOCAL_HTTP).toBe(true);
    expect(c.WEBHOOK_LOCAL_PORTS).toEqual([
      [8080, 8080],
      [9000, 9002],
    ]);
    expect(c.INDEX_MIGRATION_STEP).toBeUndefined();
  });

  it('names every bad variable in one clear error', () => {
    const read = withEnv({
      TOKEN_TTL_SECONDS: '30',
      EVENT_RETENTION_DAYS: '1.5',
      DYNAMODB_ENDPOINT: 'not a url',
      REGION_HOMING: 'maybe',
      WEBHOOK_LOCAL_PORTS: '70000',
      REGIONS: 'eu west',
      CURSOR_SECRET: 'short',
    });
    expect(read).toThrow(
      'Invalid configuration: DYNAMODB_ENDPOINT: must be an absolute URL; ' +
        'CURSOR_SECRET: must have at least 32 characters; ' +
        'TOKEN_TTL_SECONDS: must be at least 60; EVENT_RETENTION_DAYS: must be a whole number',
    );
    expect(read).toThrow(/REGION_HOMING: must be true or false/);
    expect(read).toThrow(/WEBHOOK_LOCAL_PORTS: ports from 1 to 65535/);
    expect(read).toThrow(/REGIONS: comma-separated region names/);
    expect(read).not.toThrow(/not a url|maybe|short/);
  });

  it('reads once until reset', () => {
    const first = withEnv({ TABLE_NAME: 'one' })();
    process.env.TABLE_NAME = 'two';
    expect(config()).toBe(first);
    resetConfig();
    expect(config().TABLE_NAME).toBe('two');
  });
});
