import { Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it, vi } from 'vitest';
import { deliver, deliveryBody, signedHeaders } from '../../shared/domain/webhook-delivery';
import { newSigningSecret } from '../../shared/domain/webhooks';

/** The secret's form, the delivery's body and its Standard Webhooks headers. */
const EVENT = {
  id: '0190a1b2c3d4e5f6a7b8c9d0',
  type: 'ticket.replied',
  occurredAt: Date.UTC(2025, 0, 2, 3, 4, 5, 678),
  resourceId: '0190a1b2c3d4e5f6a7b8c9d1',
  resource: { id: 'r1', description: 'Hello' },
};
const CURSOR = 'https://api.example.com/event/list?page=2&cursor=abc';

describe('newSigningSecret', () => {
  it('is whsec_ and the base64 of 24 random bytes, different every time', () => {
    const secrets = new Set(Array.from({ length: 50 }, newSigningSecret));
    expect(secrets.size).toBe(50);
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(24);
    }
  });
});

describe('deliveryBody', () => {
  it('is { type, timestamp (ISO, when it occurred), data: { event, cursor } }', () => {
    expect(JSON.parse(deliveryBody(EVENT, CURSOR))).toEqual({
      type: 'ticket.replied',
      timestamp: '2025-01-02T03:04:05.678Z',
      data: { event: EVENT, cursor: CURSOR },
    });
  });
});

describe('signedHeaders', () => {
  it('carries webhook-id (the event id), webhook-timestamp (seconds) and a v1 signature the package verifies', () => {
    const secret = newSigningSecret();
    const body = deliveryBody(EVENT, CURSOR);
    const at = new Date();
    const headers = signedHeaders(secret, EVENT.id, body, at);
    expect(headers).toEqual({
      'content-type': 'application/json',
      'webhook-id': EVENT.id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]+=*$/),
    });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    // Another secret, another body or another id do not verify.
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body.replace('Hello', 'Hallo'), headers)).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'other' })).toThrow();
  });
});

describe('deliver', () => {
  it('re-checks the URL first: a refused receiver is a failed attempt, nothing sent', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const connectSpy = vi.spyOn(Socket.prototype, 'connect');
    const outcome = await deliver({ url: 'https://10.0.0.1/x', secret: newSigningSecret() }, EVENT, CURSOR);
    expect(outcome).toEqual({
      ok: false,
      error: expect.stringMatching(/10\.0\.0\.1/),
      ms: expect.any(Number),
    });
    const resolved = await deliver(
      { url: 'https://hooks.example.com/x', secret: newSigningSecret() },
      EVENT,
      CURSOR,
      {
        lookup: async () => [{ address: '192.168.0.10' }],
      },
    );
    expect(resolved.ok).toBe(false);
    expect(resolved.error).toMatch(/192\.168\.0\.10/);
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(connectSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
    connectSpy.mockRestore();
  });
});
