import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ImportKind, ImportLine } from '../schemas/import';
import type { TicketInput } from '../schemas/ticket';
import { db, tableName } from '../store/dynamo';
import type { Entity } from '../store/entity';
import { Conflict, InvalidReference } from '../store/errors';
import { type ImportSource, readImportSource, SourceTaken, sourceWrite } from '../store/imports';
import { keys } from '../store/keys';
import { writeAtomically } from '../store/transact';
import { agents } from './agents';
import type { WriteContext } from './commit';
import { customers } from './customers';
import { importTicket, type ResolvedTicket, type TicketLine } from './import-tickets';
import { ticketAreas, ticketGroups, ticketTypes } from './lookups';
import { insertRecord, type RecordResource } from './records';

/**
 * One line of an import file applied (docs/import.md): its references resolved through the source
 * items of the lines before it (or of an earlier import), then its record written with its source
 * item in one transaction. A line whose source id was imported before is skipped; a customer,
 * agent or lookup whose unique value (e-mail, name) a record here already has is linked to that
 * record (its source item only: skipped, later lines refer to that record).
 */
export type LineOutcome = 'created' | 'skipped';

// biome-ignore lint/suspicious/noExplicitAny: each kind's resource has its own record and body types
type AnyResource = RecordResource<any, any>;
const RESOURCES: Record<Exclude<ImportKind, 'ticket'>, AnyResource> = {
  agent: agents,
  customer: customers,
  ticketType: ticketTypes,
  ticketArea: ticketAreas,
  ticketGroup: ticketGroups,
};

/** What a kind's references point at: the kind of the line that made them. */
type Ref = { externalId: string } | null | undefined;

/**
 * Source ids resolved to record ids, remembered for the job's run: a line's source item is
 * written with its record and never changes, so a resolved id stays right.
 */
export class SourceIds {
  private readonly known = new Map<string, string>();
  constructor(private readonly tenantId: string) {}

  async id(kind: ImportKind, ref: { externalId: string }, path: string): Promise<string> {
    const key = `${kind}\n${ref.externalId}`;
    const cached = this.known.get(key);
    if (cached) return cached;
    const source = await readImportSource(this.tenantId, kind, ref.externalId);
    // A ticket still being written in parts is not one to refer to (tickets are referred to by none).
    if (!source)
      throw new InvalidReference(
        `${path}.externalId`,
        `The ${kind} with externalId ${JSON.stringify(ref.externalId)}`,
        `no ${kind} line with this externalId was imported before this line`,
      );
    this.known.set(key, source.id);
    return source.id;
  }

  async maybe(kind: ImportKind, ref: Ref, path: string): Promise<{ id: string } | null | undefined> {
    if (ref === undefined || ref === null) return ref;
    return { id: await this.id(kind, ref, path) };
  }

  remember(kind: ImportKind, externalId: string, id: string): void {
    this.known.set(`${kind}\n${externalId}`, id);
  }
}

/** The ticket body the API would take, with references as ids here; each reply's and note's author. */
const resolveTicket = async (line: TicketLine, ids: SourceIds): Promise<ResolvedTicket> => {
  const {
    kind: _kind,
    externalId: _externalId,
    number: _number,
    insertDate: _insertDate,
    managedDate: _managedDate,
    closedDate: _closedDate,
    replies,
    notes,
    attachedDocuments: _documents,
    openedBy,
    assignedTo,
    type,
    area,
    group,
    cc,
    ...fields
  } = line;
  const input = {
    ...fields,
    openedBy: { id: await ids.id('customer', openedBy, 'openedBy') },
    ...(assignedTo === undefined ? {} : { assignedTo: await ids.maybe('agent', assignedTo, 'assignedTo') }),
    ...(type === undefined ? {} : { type: await ids.maybe('ticketType', type, 'type') }),
    ...(area === undefined ? {} : { area: await ids.maybe('ticketArea', area, 'area') }),
    ...(group === undefined ? {} : { group: await ids.maybe('ticketGroup', group, 'group') }),
    ...(cc === undefined
      ? {}
      : { cc: await Promise.all(cc.map(async (ref, i) => ({ id: await ids.id('agent', ref, `cc.${i}`) }))) }),
  } as TicketInput;
  const replyAuthors = await Promise.all(
    (replies ?? []).map(async (r, i) =>
      r.replyFromOperator ? ids.id('agent', r.replyFromOperator, `replies.${i}.replyFromOperator`) : null,
    ),
  );
  const noteAuthors = await Promise.all(
    (notes ?? []).map(async (n, i) =>
      n.insertBy ? ids.id('agent', n.insertBy, `notes.${i}.insertBy`) : null,
    ),
  );
  return { line, input, replyAuthors, noteAuthors };
};

/** The record here that already holds one of the unique values of `fields` (e-mail, name), if any. */
const holderOf = async (
  entity: Entity<unknown>,
  tenantId: string,
  fields: Record<string, unknown>,
): Promise<string | undefined> => {
  const kind = entity.list?.kind;
  if (!kind) return undefined;
  for (const unique of entity.unique ?? []) {
    const value = unique.value(fields);
    if (!value) continue;
    const out = await db().send(
      new GetCommand({
        TableName: tableName(),
        Key: keys.unique(tenantId, kind, unique.field, value),
        ConsistentRead: true,
      }),
    );
    if (typeof out.Item?.ownerId === 'string') return out.Item.ownerId;
  }
  return undefined;
};

/** Applies one valid line; throws the domain error that fails it (nothing of it written). */
export const applyLine = async (
  ctx: WriteContext,
  jobId: string,
  line: ImportLine,
  ids: SourceIds,
): Promise<LineOutcome> => {
  const { tenantId } = ctx;
  const existing = await readImportSource(tenantId, line.kind, line.externalId);
  // Made by this job before a crash: it counts as this job's creation (its count was not kept).
  const earlier = (source: ImportSource): LineOutcome => (source.jobId === jobId ? 'created' : 'skipped');
  if (existing && !(existing.parts && existing.parts.done < existing.parts.total)) {
    ids.remember(line.kind, line.externalId, existing.id);
    return earlier(existing);
  }
  try {
    if (line.kind === 'ticket') {
      await importTicket(ctx, jobId, await resolveTicket(line, ids), existing);
      return existing ? earlier(existing) : 'created';
    }
    const { kind: _kind, externalId, ...body } = line;
    const resource = RESOURCES[line.kind];
    const source = (id: string): ImportSource => ({ kind: line.kind, externalId, id, jobId });
    try {
      const id = await insertRecord(resource, ctx, body, (id) => [sourceWrite(tenantId, source(id))]);
      ids.remember(line.kind, externalId, id);
      return 'created';
    } catch (error) {
      if (!(error instanceof Conflict)) throw error;
      // Its e-mail or name is a record's here already: this line is that record.
      const holder = await holderOf(
        resource.entity as Entity<unknown>,
        tenantId,
        resource.prepare(body, undefined),
      );
      if (!holder) throw error;
      await writeAtomically([sourceWrite(tenantId, source(holder))]);
      ids.remember(line.kind, externalId, holder);
      return 'skipped';
    }
  } catch (error) {
    // Another job wrote this source record first (two imports of one file at once).
    if (!(error instanceof SourceTaken)) throw error;
    const now = await readImportSource(tenantId, line.kind, line.externalId);
    if (!now) throw error;
    ids.remember(line.kind, line.externalId, now.id);
    return earlier(now);
  }
};
