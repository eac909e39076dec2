import { describe, expect, it } from 'vitest';
import { readDetailHead } from '../../shared/store/detail-items';
import { childPrefix, DETAIL_END, keys, RECORD_SK } from '../../shared/store/keys';
import { ticketKey } from '../../shared/store/tickets';
import { tenantWithRecords } from '../helpers/tenant-client';

/**
 * A ticket detail reads what it shows and no more: its Query of the ticket's collection stops
 * before the tag items (index entries of up to 20 tags, each as large as a reply), so a detail
 * pays no read units for them; the detail still shows every tag, from the ticket itself.
 */
describe('the read of a ticket detail', () => {
  it('keeps everything a detail shows before where it stops, and the tags and the trash after', () => {
    for (const shown of [RECORD_SK, childPrefix('document'), childPrefix('note'), childPrefix('reply')])
      expect(shown < DETAIL_END, shown).toBe(true);
    for (const after of [keys.tag('a'), keys.tag(''), keys.trashed])
      expect(after >= DETAIL_END, after).toBe(true);
  });

  it('reads no tag item of a ticket with 20 tags, and the detail shows all 20', async () => {
    const { tenant, api, ids } = await tenantWithRecords();
    const tags = Array.from({ length: 20 }, (_, i) => `tag-${i}`);
    const updated = await api.put(`/ticket/update/${ids.ticket}`, { tags: tags.map((tag) => ({ tag })) });
    expect(updated.status).toBe(200);
    const reply = await api.put(`/ticket/reply/${ids.ticket}`, {
      text: 'hello',
      replyFromOperator: { id: ids.agent },
    });
    expect(reply.status).toBe(200);
    const note = await api.put(`/ticket/addNote/${ids.ticket}`, { note: 'n', insertBy: ids.agent });
    expect(note.status).toBe(200);

    const head = await readDetailHead(ticketKey(tenant.clientId, ids.ticket as string).pk);
    const kinds = (head?.items ?? []).map((item) => String(item.sk).split('#')[0]);
    expect(kinds).toEqual(['', 'N', 'R']);
    expect(head?.end).toBeUndefined();

    const detail = await api.get(`/ticket/${ids.ticket}`);
    expect(detail.status).toBe(200);
    expect(detail.body.tags).toEqual(tags.map((tag) => ({ tag })));
    expect(detail.body.replies.map((r: { text: string }) => r.text)).toEqual(['hello']);
    expect(detail.body.ticketNotes.map((n: { note: string }) => n.note)).toEqual(['n']);
  });
});
