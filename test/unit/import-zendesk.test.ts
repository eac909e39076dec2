import { describe, expect, it } from 'vitest';
import { convertZendesk } from '../../local/import/zendesk';
import { type ImportLine, importLine } from '../../shared/schemas/import';

/**
 * `helpdesk import convert zendesk`: test/fixtures/zendesk is an export as Zendesk's API and JSON
 * export write it (users, organizations and groups as API pages, tickets as the JSON export's
 * lines with their comments and a later incremental page repeating one of them, a ticket's comments
 * as List Comments pages (one repeating an embedded comment), one attachment on disk).
 */
const { lines, warnings } = convertZendesk('test/fixtures/zendesk');
const parsed = lines.map((l) => importLine.parse(l));
const byKind = <K extends ImportLine['kind']>(kind: K) =>
  parsed.filter((l): l is Extract<ImportLine, { kind: K }> => l.kind === kind);
const ticket = (id: string) => byKind('ticket').find((t) => t.externalId === id);

describe('the Zendesk converter', () => {
  it('writes only lines the import format accepts, each record once, referenced records before tickets', () => {
    expect(lines.map((l) => importLine.safeParse(l).success)).not.toContain(false);
    expect(parsed.map((l) => `${l.kind} ${l.externalId}`)).toEqual([
      'customer 20978392',
      'agent 235323',
      'agent 76872',
      'customer 555001',
      'ticketGroup 98738',
      'ticketType incident',
      'ticketType question',
      // tickets-2.json (an incremental export's page) is read before tickets.ndjson; each ticket once.
      'ticket 35437',
      'ticket 35436',
    ]);
    // Every reference names a line of its kind that comes before it.
    const seen = new Set<string>();
    const refs = (t: Extract<ImportLine, { kind: 'ticket' }>) => [
      ['customer', t.openedBy.externalId],
      ...(t.assignedTo ? [['agent', t.assignedTo.externalId]] : []),
      ...(t.group ? [['ticketGroup', t.group.externalId]] : []),
      ...(t.type ? [['ticketType', t.type.externalId]] : []),
      ...(t.cc ?? []).map((c) => ['agent', c.externalId]),
      ...(t.replies ?? []).flatMap((r) =>
        r.replyFromOperator ? [['agent', r.replyFromOperator.externalId]] : [],
      ),
      ...(t.notes ?? []).flatMap((n) => (n.insertBy ? [['agent', n.insertBy.externalId]] : [])),
    ];
    for (const l of parsed) {
      if (l.kind === 'ticket')
        for (const [kind, id] of refs(l)) expect(seen.has(`${kind} ${id}`), `${kind} ${id}`).toBe(true);
      seen.add(`${l.kind} ${l.externalId}`);
    }
  });

  it('makes end-users customers (their organization their company) and agents and admins agents', () => {
    expect(byKind('customer')[0]).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phoneNumber: '+44 20 7946 0000',
      company: 'Analytical Engines Ltd',
      memo: 'Prefers e-mail.',
      language: 'en',
    });
    expect(byKind('agent').map((a) => [a.name, a.language])).toEqual([
      ['Grace Hopper', 'it'],
      ['Katherine Johnson', undefined],
    ]);
    // A user without an address gets one that can be no one's, and a warning says so.
    expect(byKind('customer')[1]?.email).toBe('zendesk-user-555001@example.invalid');
    expect(warnings).toContain('user 555001: no e-mail address, given zendesk-user-555001@example.invalid');
  });

  it("keeps a ticket's history: dates, number, status, the description, replies and notes in order, with authors", () => {
    expect(ticket('35436')).toMatchObject({
      number: '35436/2019',
      externalId1: '35436',
      subject: 'Help, my printer is on fire!',
      description: 'The fire is very colorful.',
      status: 'closed',
      priority: 1,
      source: 'email',
      insertDate: Date.parse('2019-07-20T22:55:29Z'),
      managedDate: Date.parse('2019-07-22T10:38:52Z'),
      closedDate: Date.parse('2019-07-22T10:38:52Z'),
      openedBy: { externalId: '20978392' },
      assignedTo: { externalId: '235323' },
      group: { externalId: '98738' },
      type: { externalId: 'incident' },
      // Collaborators that are agents: our cc names agents only.
      cc: [{ externalId: '76872' }],
      tags: ['enterprise', 'printer'],
      customFields: [
        { name: 'zendesk field 27642', value: '745' },
        { name: 'zendesk field 27650', value: 'red, blue' },
      ],
    });
    const t = ticket('35436');
    expect(t?.replies?.map((r) => [r.text, r.replyDate, r.replyFromOperator?.externalId ?? null])).toEqual([
      ['Have you tried water?', Date.parse('2019-07-21T08:00:00Z'), '235323'],
      ['It worked, thanks!', Date.parse('2019-07-22T10:30:00Z'), null],
    ]);
    expect(t?.notes).toEqual([
      {
        note: 'Customer sounds calm, escalate if it reignites.',
        date: Date.parse('2019-07-21T08:05:00Z'),
        insertBy: { externalId: '235323' },
      },
    ]);
    // The description's attachment was on disk; the reply's was not (a warning names its address).
    expect(t?.attachedDocuments).toEqual([
      {
        documentName: 'fire.txt',
        documentType: 'text/plain',
        documentBase64: Buffer.from('it is on fire\n').toString('base64'),
      },
    ]);
    expect(warnings).toContain(
      'ticket 35436 comment 1277: attachment after.jpg not in attachments/ (https://example.zendesk.com/attachments/token/def/?name=after.jpg)',
    );
  });

  it('reads comments from comments/<ticket id>.json, keeps an external_id as externalId1, and a ticket as last updated', () => {
    // tickets.ndjson has it pending; the later page of tickets-2.json, solved a day after.
    expect(ticket('35437')).toMatchObject({
      number: '35437/2021',
      externalId1: 'crm-991',
      status: 'solved',
      managedDate: Date.parse('2021-02-04T09:00:00Z'),
      priority: 0,
      source: 'phone',
      closedDate: null,
      description: "Could you send me last month's invoice?",
      replies: [{ text: 'Sent, please check your spam folder.', replyFromOperator: { externalId: '76872' } }],
    });
    expect(ticket('35437')?.assignedTo).toBeUndefined();
  });
});
