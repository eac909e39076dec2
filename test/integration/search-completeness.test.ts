import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseQuery, type QueryNode } from '../../shared/search/query-language';
import { newSearcher, useSearchPipeline } from '../helpers/search-pipeline';

/**
 * Completeness (issue 23): after any sequence of inserts, updates, replies, notes, deletions,
 * restores and merges, once the index has applied the last write (`Helpdesk-Min-Position`), every
 * query returns exactly the tickets whose current text and fields match: compared with a
 * brute-force evaluation of the same parsed query over the tickets as `/ticket/list` reads them
 * from the table. The customer has no language (`simple`: lower-cased words, no stemming), so the
 * brute force can tokenize as PostgreSQL does for these words.
 */
useSearchPipeline('helpdesk-test-search-completeness');

const WORDS = ['amber', 'basil', 'cedar', 'delta', 'ember', 'fjord'] as const;
const TAGS = ['red', 'blue'] as const;
const STATUS_WORDS = ['opened', 'onhold', 'solved', 'closed'] as const;

const text = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));

type Op =
  | { kind: 'insert'; subject: string; description: string; priority: 0 | 1; tags: string[] }
  | { kind: 'update'; pick: number; subject: string; status: string; tags: string[] }
  | { kind: 'reply'; pick: number; text: string }
  | { kind: 'note'; pick: number; text: string }
  | { kind: 'delete'; pick: number }
  | { kind: 'restore'; pick: number }
  | { kind: 'merge'; pick: number; source: number };

const pick = fc.nat({ max: 50 });
const tags = fc.subarray([...TAGS]);
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('insert' as const),
      subject: text,
      description: text,
      priority: fc.constantFrom(0 as const, 1 as const),
      tags,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('update' as const),
      pick,
      subject: text,
      status: fc.constantFrom('opened', 'on hold', 'solved', 'closed'),
      tags,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reply' as const), pick, text }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('note' as const), pick, text }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('restore' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('merge' as const), pick, source: pick }) },
);

/** Queries over the same words: words, prefixes, phrases, OR, exclusion and filters, alone and mixed. */
const word = fc.constantFrom(...WORDS);
const term: fc.Arbitrary<string> = fc.oneof(
  word,
  word.map((w) => `${w.slice(0, 3)}*`),
  fc.tuple(word, word).map(([a, b]) => `"${a} ${b}"`),
  fc.constantFrom(...STATUS_WORDS).map((s) => `status:${s}`),
  fc.constantFrom('priority:0', 'priority:1', 'tag:red', 'tag:blue'),
);
const query = fc.oneof(
  term,
  fc.tuple(term, term).map(([a, b]) => `${a} ${b}`),
  fc.tuple(term, term).map(([a, b]) => `${a} OR ${b}`),
  fc.tuple(term, term).map(([a, b]) => `${a} -${b}`),
  fc.tuple(term, term, term).map(([a, b, c]) => `(${a} OR ${b}) ${c}`),
);

interface Ticket {
  id: string;
  subject: string;
  description: string;
  replies: { text: string; replyDate: number }[];
  ticketNotes: { note: string; date: number }[];
  priority: number;
  tags: { tag: string }[];
  status: { status: string };
}

const tokens = (s: string) =>
  s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** The ticket's words in the order the index reads them: subject, description, replies, notes. */
const wordsOf = (t: Ticket): string[] => [
  ...tokens(t.subject),
  ...tokens(t.description),
  ...[...t.replies].sort((a, b) => a.replyDate - b.replyDate).flatMap((r) => tokens(r.text)),
  ...[...t.ticketNotes].sort((a, b) => a.date - b.date).flatMap((n) => tokens(n.note)),
];

const matches = (node: QueryNode, t: Ticket, words: string[]): boolean => {
  switch (node.kind) {
    case 'and':
      return node.children.every((c) => matches(c, t, words));
    case 'or':
      return node.children.some((c) => matches(c, t, words));
    case 'not':
      return !matches(node.child, t, words);
    case 'word':
      return node.prefix ? words.some((w) => w.startsWith(node.text)) : words.includes(node.text);
    case 'phrase': {
      const p = tokens(node.text);
      return words.some((_, i) => p.every((w, j) => words[i + j] === w));
    }
    case 'status':
      return t.status.status === node.value;
    case 'priority':
      return t.priority === node.value;
    case 'tag':
      return t.tags.some((x) => x.tag === node.value);
    default:
      throw new Error(`not generated: ${node.kind}`);
  }
};

describe('search completeness', () => {
  it('returns exactly the tickets whose current text and fields match, after any sequence of changes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 3, maxLength: 14 }),
        fc.array(query, { minLength: 8, maxLength: 12 }),
        async (ops, queries) => {
          const s = await newSearcher();
          const customer = (
            await s.write('POST', '/customer/insert', { name: 'Zed Quux', email: 'zq@ex.io' })
          ).id;
          const made: string[] = [];
          const at = (i: number) => made[i % Math.max(1, made.length)];
          const attempt = async (method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) => {
            // A change the rules refuse (a merged ticket's reply, a restore of a live one) is not a write.
            try {
              await s.write(method, path, body);
            } catch (error) {
              if (!/answered (400|404|409)/.test((error as Error).message)) throw error;
            }
          };
          for (const o of ops) {
            const id = at('pick' in o ? o.pick : 0);
            if (o.kind === 'insert') {
              const { subject, description, priority, tags: t } = o;
              made.push(
                (
                  await s.write('POST', '/ticket/insert', {
                    subject,
                    description,
                    priority,
                    tags: t,
                    openedBy: { id: customer },
                  })
                ).id,
              );
            } else if (!id) continue;
            else if (o.kind === 'update')
              await attempt('PUT', `/ticket/update/${id}`, {
                subject: o.subject,
                status: o.status,
                tags: o.tags,
              });
            else if (o.kind === 'reply') await attempt('PUT', `/ticket/reply/${id}`, { text: o.text });
            else if (o.kind === 'note') await attempt('PUT', `/ticket/addNote/${id}`, { note: o.text });
            else if (o.kind === 'delete') await attempt('DELETE', `/ticket/delete/${id}`);
            else if (o.kind === 'restore') await attempt('PUT', `/ticket/restore/${id}`);
            else if (o.kind === 'merge') {
              const source = at(o.source);
              if (source && source !== id) await attempt('PUT', `/ticket/merge/${id}`, { sources: [source] });
            }
          }
          // The table's tickets now, as their details (every page).
          const live: Ticket[] = [];
          for (let url: string | null = '/ticket/list'; url; ) {
            const page = await s.api.get(url);
            expect(page.status).toBe(200);
            live.push(...page.body.ticket.records);
            url = page.body.ticket.nextQuery;
          }
          for (const q of queries) {
            const node = parseQuery(q);
            const expected = live
              .filter((t) => matches(node, t, wordsOf(t)))
              .map((t) => t.id)
              .sort();
            const found: string[] = [];
            let res = await s.searchAfterWrites('/ticket/search', q);
            for (;;) {
              expect(res.status, `${q}: ${JSON.stringify(res.body)}`).toBe(200);
              found.push(...res.body.ticket.records.map((r: { id: string }) => r.id));
              if (!res.body.ticket.nextQuery) break;
              res = await s.api.get(res.body.ticket.nextQuery);
            }
            expect(found.sort(), q).toEqual(expected);
            expect(res.body.ticket.totalRecords, q).toBe(expected.length);
          }
        },
      ),
      { numRuns: 15 },
    );
  }, 240_000);
});
