import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { invoke } from '../helpers/api';

/** The operator CLI as an operator runs it: a separate process against the test store. */
const cli = (...args: string[]) => {
  const out = spawnSync(process.execPath, ['--import', 'tsx', 'local/cli.ts', ...args], {
    encoding: 'utf8',
    env: { ...process.env },
    timeout: 60_000,
  });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
};

const exchange = (apiToken: string) =>
  invoke('GET', '/oauth/token?grant_type=client_credentials', {
    headers: { authorization: `Basic ${apiToken}` },
  });

describe('operator CLI', () => {
  it('creates a client printing exactly one JSON line, lists it, revokes it', async () => {
    const created = cli('client', 'create', '--name', 'acme');
    expect(created.status, created.stderr).toBe(0);
    const lines = created.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    const { clientId, apiToken } = JSON.parse(lines[0] as string);
    expect(Object.keys(JSON.parse(lines[0] as string))).toEqual(['clientId', 'apiToken']);
    expect(Buffer.from(apiToken, 'base64').toString()).toMatch(new RegExp(`^${clientId}:[\\w-]{43}$`));
    expect((await exchange(apiToken)).status).toBe(200);

    const listed = cli('client', 'list');
    expect(listed.status).toBe(0);
    const clients = listed.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(clients).toContainEqual({ clientId, name: 'acme', createdAt: expect.any(Number), revoked: false });
    expect(listed.stdout).not.toContain(apiToken);

    const revoked = cli('client', 'revoke', '--client-id', clientId);
    expect(revoked.status).toBe(0);
    expect(JSON.parse(revoked.stdout)).toEqual({ clientId, revoked: true });
    expect((await exchange(apiToken)).status).toBe(401);
  }, 120_000);

  it('fails clearly: unknown client exit 1, usage errors exit 2, nothing on stdout', () => {
    const unknown = cli('client', 'revoke', '--client-id', 'aaaaaaaaaaaaaaaaaaaaaaaa');
    expect(unknown.status).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(JSON.parse(unknown.stderr.trim().split('\n').at(-1) as string)).toMatchObject({ status: 404 });
    for (const args of [
      [],
      ['client'],
      ['client', 'create'],
      ['client', 'create', '--nope', 'x'],
      ['user', 'list'],
    ]) {
      const res = cli(...args);
      expect(res.status, args.join(' ')).toBe(2);
      expect(res.stdout, args.join(' ')).toBe('');
    }
  }, 120_000);
});
