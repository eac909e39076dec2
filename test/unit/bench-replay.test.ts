import { describe, expect, it } from 'vitest';
import { callKey } from '../../bench/replay';

/**
 * The AWS SDK hands its HTTP handler a JSON body as a Uint8Array whose string methods (valueOf,
 * toString) convert it with a warning, and will throw in a future version: the replay's key reads
 * the bytes themselves.
 */
class StrictBytes extends Uint8Array {
  override valueOf(): never {
    throw new Error('a string method on the request body');
  }

  override toString(): never {
    throw new Error('a string method on the request body');
  }
}

describe('the replay call key (bench/replay.ts)', () => {
  it("keys a call by its operation and its body's bytes, without a string method of the body", () => {
    const text = '{"TableName":"t","Key":{"pk":{"S":"é"}}}';
    const bytes = Buffer.from(text, 'utf8');
    const body = new StrictBytes(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const key = callKey({ headers: { 'x-amz-target': 'DynamoDB_20120810.GetItem' }, body });
    expect(key).toBe(`DynamoDB_20120810.GetItem ${bytes.toString('latin1')}`);
  });

  it('keys a string body and a call without one', () => {
    expect(callKey({ headers: { 'x-amz-target': 'A' }, body: 'x' })).toBe('A x');
    expect(callKey({ headers: { 'x-amz-target': 'A' } })).toBe('A ');
  });
});
