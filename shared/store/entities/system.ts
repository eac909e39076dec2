import type { CompatProfile } from '../../schemas/compat';
import type { Entity } from '../entity';
import { keys } from '../keys';
import { LIST_INDEX } from '../table-schema';

/**
 * The items that are not API resources: clients (tenants), their access tokens, counters and
 * remembered idempotent outcomes. Declared here like every other item type.
 */
export interface ClientRecord {
  clientId: string;
  name: string;
  secretHash: string;
  createdAt: number;
  revoked: boolean;
  revokedAt?: number;
  /**
   * The compatibility profile the operator pinned the client to. Kept, never interpreted, by the
   * store; absent on clients created before profiles existed (they read as `standard`).
   */
  compat?: CompatProfile;
  /**
   * The region whose replica takes every write of this tenant (docs/regions.md); absent on
   * clients created before regions existed (their home is the primary region).
   */
  homeRegion?: string;
  /** When the operator last moved the home (`client rehome`). */
  rehomedAt?: number;
  /** Days a deleted ticket stays in the trash (`client update --trash-days`); absent: TRASH_DAYS. */
  trashDays?: number;
  /** Days a history entry is kept (`client update --history-days`); absent: HISTORY_DAYS. */
  historyDays?: number;
}

/** Days a ticket's or customer's history entry is kept unless the operator set the client's own (two years). */
export const HISTORY_DAYS = 730;
/** The longest history retention an operator may set (ten years). */
export const MAX_HISTORY_DAYS = 3650;

/** Days a deleted ticket stays in the trash unless the operator set the client's own (0: purged at once). */
export const TRASH_DAYS = 30;
/** The longest retention an operator may set. */
export const MAX_TRASH_DAYS = 365;

export const clientEntity: Entity<ClientRecord> = {
  entity: 'CLIENT',
  label: 'Client',
  key: (_, c) => keys.client(c.clientId),
};

/** Clients are listed (operator CLI) from one partition of the `list` index, oldest first. */
export const clientListAttributes = (c: ClientRecord) => ({
  [LIST_INDEX.partition]: keys.clientList(),
  [LIST_INDEX.sort]: keys.byCreation(c.createdAt, c.clientId),
});

export interface AccessTokenRecord {
  clientId: string;
  tokenHash: string;
  expiresAt: number;
}

export const accessTokenEntity: Entity<AccessTokenRecord> = {
  entity: 'ACCESS_TOKEN',
  label: 'Access token',
  key: (_, t) => keys.accessToken(t.clientId, t.tokenHash),
};

export interface IdempotencyRecord {
  keyHash: string;
  /** Hash of what the request asked for: operation, path id and body. */
  fingerprint: string;
  status: number;
  /** The response body, as JSON. */
  body: string;
  expiresAt: number;
  /** The change's place in the feed (the `Helpdesk-Position` it answered), when it had events. */
  position?: string;
  /** The version the write gave the record its route names (the `ETag` it answered), when known. */
  version?: number;
}

export const idempotencyEntity: Entity<IdempotencyRecord> = {
  entity: 'IDEMPOTENCY',
  label: 'Idempotency record',
  key: (tenantId, r) => keys.idempotency(tenantId, r.keyHash),
};

/** A count (`n`) kept exact by moving it in the transaction of the write it counts. */
export interface CounterRecord {
  name: string;
  n: number;
}

export const counterEntity: Entity<CounterRecord> = {
  entity: 'COUNTER',
  label: 'Counter',
  key: (tenantId, c) => keys.counter(tenantId, c.name),
};
