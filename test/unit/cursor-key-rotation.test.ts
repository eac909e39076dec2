import type { SecretsManagerRotationEventStep } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/cursor-key-rotation';
import { logger } from '../../shared/http/logger';
import { kidOfVersion, LEGACY_KID, parseKeyValue } from '../../shared/store/cursor-key';
import { FakeSecretsManager } from '../helpers/fake-secrets-manager';

const ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:CursorSecret-AbCdEf';
const LEGACY_VALUE = 'legacyPlainCursorKeyOfSixtyFourLettersAndDigits0123456789abcdefgh';
const STEPS: SecretsManagerRotationEventStep[] = ['createSecret', 'setSecret', 'testSecret', 'finishSecret'];

let sm: FakeSecretsManager;
let info: { mock: { calls: unknown[][] } };
beforeEach(() => {
  sm = new FakeSecretsManager(ARN, LEGACY_VALUE);
  sm.install();
  info = vi.spyOn(logger, 'info').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const step = (Step: SecretsManagerRotationEventStep, token: string) =>
  handler({ SecretId: ARN, ClientRequestToken: token, Step });

/** What Secrets Manager does on a rotation: the placeholder version, then the four steps in order. */
const rotate = async (): Promise<string> => {
  const token = sm.startRotation();
  for (const s of STEPS) await step(s, token);
  return token;
};

describe('cursor key rotation', () => {
  it('runs the four steps: a new random key as AWSPENDING, tested, then AWSCURRENT; the old key AWSPREVIOUS', async () => {
    const original = sm.labelled('AWSCURRENT') as string;
    const token = sm.startRotation();

    await step('createSecret', token);
    expect(sm.calls).toEqual(['DescribeSecret', 'GetSecretValue', 'GetSecretValue', 'PutSecretValue']);
    expect(sm.stages()).toEqual({ [original]: ['AWSCURRENT'], [token]: ['AWSPENDING'] });
    const created = parseKeyValue(sm.valueOf('AWSPENDING') as string);
    expect(created.kid).toBe(kidOfVersion(token));
    expect(created.kid).not.toBe(LEGACY_KID);
    expect(created.key.toString()).toMatch(/^[A-Za-z0-9_-]{64}$/);

    sm.calls.length = 0;
    await step('setSecret', token);
    expect(sm.calls).toEqual(['DescribeSecret']);

    sm.calls.length = 0;
    await step('testSecret', token);
    expect(sm.calls).toEqual(['DescribeSecret', 'GetSecretValue', 'GetSecretValue']);
    expect(sm.stages()).toEqual({ [original]: ['AWSCURRENT'], [token]: ['AWSPENDING'] });

    sm.calls.length = 0;
    await step('finishSecret', token);
    expect(sm.calls).toEqual(['DescribeSecret', 'UpdateSecretVersionStage', 'UpdateSecretVersionStage']);
    expect(sm.stages()).toEqual({ [original]: ['AWSPREVIOUS'], [token]: ['AWSCURRENT'] });
    expect(sm.valueOf('AWSPREVIOUS')).toBe(LEGACY_VALUE);
  });

  it('moves the labels along on the next rotation: the key two rotations back loses its label', async () => {
    const original = sm.labelled('AWSCURRENT') as string;
    const first = await rotate();
    const second = await rotate();
    expect(sm.stages()).toEqual({ [first]: ['AWSPREVIOUS'], [second]: ['AWSCURRENT'] });
    expect(sm.versions.get(original)?.stages.size).toBe(0);
    const [a, b] = [first, second].map((id) => parseKeyValue(sm.versions.get(id)?.value as string));
    expect(a?.kid).not.toBe(b?.kid);
    expect(a?.key.equals(b?.key as Buffer)).toBe(false);
  });

  it('createSecret is idempotent: a retried step keeps the key it put', async () => {
    const token = sm.startRotation();
    await step('createSecret', token);
    const put = sm.valueOf('AWSPENDING');
    await step('createSecret', token);
    await step('createSecret', token);
    expect(sm.valueOf('AWSPENDING')).toBe(put);
    expect(sm.calls.filter((c) => c === 'PutSecretValue')).toHaveLength(1);
  });

  it('rotates away from an unusable current value (the repair), with a warning', async () => {
    const original = sm.labelled('AWSCURRENT') as string;
    (sm.versions.get(original) as { value?: string }).value = 'too short';
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const token = await rotate();
    expect(sm.labelled('AWSCURRENT')).toBe(token);
    expect(parseKeyValue(sm.valueOf('AWSCURRENT') as string).kid).toBe(kidOfVersion(token));
    expect(warn).toHaveBeenCalledTimes(2); // createSecret and testSecret read the current version
  });

  it('any step retried after finishSecret does nothing', async () => {
    const token = await rotate();
    const before = sm.stages();
    sm.calls.length = 0;
    for (const s of STEPS) await step(s, token);
    expect(sm.calls).toEqual(STEPS.map(() => 'DescribeSecret'));
    expect(sm.stages()).toEqual(before);
  });

  it('testSecret passes the copy of the current value Secrets Manager tests with when the schedule is set', async () => {
    const token = sm.startRotation();
    (sm.versions.get(token) as { value?: string }).value = LEGACY_VALUE;
    await expect(step('testSecret', token)).resolves.toBeUndefined();
  });

  it('testSecret refuses a pending value that is no usable key, or a different key under the current kid', async () => {
    for (const bad of [
      'short',
      '{"kid":"x"}',
      '{not json',
      JSON.stringify({ kid: LEGACY_KID, key: 'k'.repeat(64) }),
    ]) {
      const token = sm.startRotation();
      (sm.versions.get(token) as { value?: string }).value = bad;
      await expect(step('testSecret', token), bad).rejects.toThrow(/Cursor key|kid/);
    }
  });

  it('refuses versions not staged for rotation, and secrets without rotation', async () => {
    await expect(step('createSecret', 'no-such-version')).rejects.toThrow(/no stage/);
    const token = sm.startRotation();
    sm.versions.get(token)?.stages.clear();
    sm.versions.get(token)?.stages.add('OTHER');
    await expect(step('createSecret', token)).rejects.toThrow(/not AWSPENDING/);
    sm.rotationEnabled = false;
    await expect(step('createSecret', sm.startRotation())).rejects.toThrow(/not enabled/);
  });

  it('refuses an unknown step', async () => {
    await expect(
      handler({ SecretId: ARN, ClientRequestToken: sm.startRotation(), Step: 'nope' as never }),
    ).rejects.toThrow(/Unknown rotation step/);
  });

  it('logs version ids and kids, never a key', async () => {
    const token = await rotate();
    const logged = JSON.stringify(info.mock.calls);
    expect(logged).toContain(token);
    for (const id of sm.versions.keys()) {
      const value = sm.versions.get(id)?.value;
      if (value) expect(logged).not.toContain(parseKeyValue(value).key.toString());
    }
  });
});
