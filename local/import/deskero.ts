import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ImportKind, ImportLineInput } from '../../shared/schemas/import';
import type { Conversion } from './conversion';
import { fileRecords, isObject, type Json } from './export-files';

/**
 * `helpdesk import convert deskero <dir>`: what Deskero's API, or ours (the same shapes), answers
 * as import lines (docs/import.md). Reads every `.json`/`.ndjson` file of `<dir>`: list pages as
 * the list routes answer them (`{"customer": {"records": […], …}}`, likewise `agent`, `type`,
 * `area`, `group`, `ticket`, the tickets with `view=detail`), or details saved one per line in a
 * file named after their kind (`customers.ndjson`, `agents…`, `ticketTypes…`, `ticketAreas…`,
 * `ticketGroups…`, `tickets…`). Every record keeps its id as its `externalId`; the customer,
 * agents and lookups a ticket embeds are records too when no file holds them.
 *
 * Files are not carried over (the detail's download addresses are short-lived, and a convert
 * fetches nothing): each ticket with documents is named in a warning. So are tickets whose
 * conversation the detail cut (`repliesTruncated`, `notesTruncated`: export them with their
 * pages), merges (each ticket comes in on its own), and tickets of an erased customer.
 */
const WRAPPERS: Record<string, ImportKind> = {
  customer: 'customer',
  agent: 'agent',
  type: 'ticketType',
  area: 'ticketArea',
  group: 'ticketGroup',
  ticket: 'ticket',
};
const FILE_PREFIXES: [string, ImportKind][] = [
  ['ticketType', 'ticketType'],
  ['ticketArea', 'ticketArea'],
  ['ticketGroup', 'ticketGroup'],
  ['ticket', 'ticket'],
  ['customer', 'customer'],
  ['agent', 'agent'],
];
const LOOKUP_FIELDS = { ticketType: 'type', ticketArea: 'area', ticketGroup: 'group' } as const;
const ORDER: ImportKind[] = ['agent', 'customer', 'ticketType', 'ticketArea', 'ticketGroup', 'ticket'];

const idOf = (value: unknown): string | undefined =>
  isObject(value) && typeof value.id === 'string' && value.id !== '' ? value.id : undefined;
const ref = (value: unknown) => {
  const id = idOf(value);
  return id ? { externalId: id } : null;
};

/** The records of a file, each with its kind: from list pages' wrappers, else from the file's name. */
const recordsOfFile = (file: string, name: string): [ImportKind, Json][] => {
  const records: [ImportKind, Json][] = [];
  const byName = FILE_PREFIXES.find(([prefix]) => name.startsWith(prefix))?.[1];
  for (const value of fileRecords(file)) {
    const wrapper = Object.keys(value).length === 1 ? Object.keys(value)[0] : undefined;
    const page = wrapper ? value[wrapper] : undefined;
    const kind = wrapper ? WRAPPERS[wrapper] : undefined;
    if (kind && isObject(page) && Array.isArray(page.records)) {
      for (const r of page.records) if (isObject(r)) records.push([kind, r]);
    } else if (byName) {
      records.push([byName, value]);
    }
  }
  return records;
};

export const convertDeskero = (dir: string): Conversion => {
  const warnings: string[] = [];
  const found = new Map<string, [ImportKind, Json]>();
  const add = (kind: ImportKind, record: Json) => {
    const id = idOf(record);
    if (id && !found.has(`${kind} ${id}`)) found.set(`${kind} ${id}`, [kind, record]);
  };
  for (const name of readdirSync(dir).sort()) {
    const file = join(dir, name);
    if (!/\.(nd)?json$/.test(name) || !statSync(file).isFile()) continue;
    for (const [kind, record] of recordsOfFile(file, name)) add(kind, record);
  }
  // What the tickets embed, where no file held it.
  for (const [kind, record] of [...found.values()]) {
    if (kind !== 'ticket') continue;
    if (isObject(record.openedBy)) add('customer', record.openedBy);
    for (const agent of [record.assignedTo, ...(Array.isArray(record.cc) ? record.cc : [])])
      if (isObject(agent)) add('agent', agent);
    for (const reply of Array.isArray(record.replies) ? record.replies : [])
      if (isObject(reply) && isObject(reply.replyFromOperator)) add('agent', reply.replyFromOperator);
    for (const note of Array.isArray(record.ticketNotes) ? record.ticketNotes : [])
      if (isObject(note) && isObject(note.insertBy)) add('agent', note.insertBy);
    if (isObject(record.type)) add('ticketType', record.type);
    if (isObject(record.area)) add('ticketArea', record.area);
    if (isObject(record.group)) add('ticketGroup', record.group);
  }
  const lines: ImportLineInput[] = [];
  for (const kind of ORDER)
    for (const [k, record] of found.values())
      if (k === kind) {
        const line = lineOf(kind, record, warnings);
        if (line) lines.push(line);
      }
  return { lines, warnings };
};

/** One record as its line: its fields as the insert takes them (the line's schema drops the rest). */
const lineOf = (kind: ImportKind, record: Json, warnings: string[]): ImportLineInput | undefined => {
  const { id, ...fields } = record;
  const externalId = id as string;
  if (kind !== 'ticket') {
    if (kind === 'agent') return { ...fields, kind, externalId } as ImportLineInput;
    if (kind === 'customer') {
      // Not carried: the source account's agent id, portal credentials (no password on read), the photo.
      const { insertByAgentId: _a, account: _c, profilePhotoBlob: _p, ...customer } = fields;
      return { ...customer, kind, externalId } as ImportLineInput;
    }
    const field = LOOKUP_FIELDS[kind];
    return { kind, externalId, [field]: fields[field], labels: fields.labels } as ImportLineInput;
  }
  const what = `ticket ${externalId} (${String(record.number)})`;
  const openedBy = ref(record.openedBy);
  if (!openedBy) {
    warnings.push(`${what}: its customer was erased, left out`);
    return undefined;
  }
  if (record.repliesTruncated || record.notesTruncated)
    warnings.push(`${what}: its detail cut the conversation: export its replies and notes pages`);
  const documents = [
    ...(Array.isArray(record.attachedDocuments) ? record.attachedDocuments : []),
    ...(Array.isArray(record.replies) ? record.replies : []).flatMap((r) =>
      isObject(r) && Array.isArray(r.attachedDocuments) ? r.attachedDocuments : [],
    ),
  ];
  if (documents.length) warnings.push(`${what}: ${documents.length} documents not carried over`);
  if (record.mergedInto || (Array.isArray(record.mergedTickets) && record.mergedTickets.length))
    warnings.push(`${what}: a merge is not carried over (each ticket comes in on its own)`);
  const {
    openedBy: _o,
    assignedTo,
    cc,
    type,
    area,
    group,
    tags,
    status,
    source,
    replies,
    ticketNotes,
    attachedDocuments: _d,
    numberOfReplies: _n,
    mergedInto: _m,
    mergedTickets: _t,
    ...rest
  } = fields;
  return {
    ...rest,
    kind,
    externalId,
    openedBy,
    assignedTo: ref(assignedTo),
    type: ref(type),
    area: ref(area),
    group: ref(group),
    cc: (Array.isArray(cc) ? cc : []).map(ref).filter((c) => c !== null),
    tags: (Array.isArray(tags) ? tags : []).map((t) => (isObject(t) ? String(t.tag) : String(t))),
    ...(isObject(status) ? { status: String(status.status) } : {}),
    ...(isObject(source) ? { source: String(source.source) } : {}),
    replies: (Array.isArray(replies) ? replies : []).filter(isObject).map((r) => ({
      text: r.text,
      replyDate: r.replyDate,
      replyFromOperator: ref(r.replyFromOperator),
    })),
    notes: (Array.isArray(ticketNotes) ? ticketNotes : []).filter(isObject).map((n) => ({
      note: n.note,
      date: n.date,
      insertBy: ref(n.insertBy),
    })),
  } as ImportLineInput;
};
