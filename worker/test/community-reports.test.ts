import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { api, signedInUser } from './helpers/api';
import { capsuleBy } from './helpers/capsules';
import { captureQueues } from './helpers/messages';
import { memorialBy, postOn } from './helpers/memorials';

/**
 * Reports and removal (docs/decisions/community.md "Reports"): three distinct people hide a capsule or a post
 * pending review; a repeat report counts once; a post's author and the memorial's creator remove a post.
 */
const reporters = () => Promise.all([signedInUser(), signedInUser(), signedInUser()]);
const noticesOf = async (userId: string, kind: string) =>
  (await env.DB.prepare('SELECT subject, text FROM owner_notices WHERE user_id = ?1 AND kind = ?2').bind(userId, kind).all<{ subject: string; text: string }>())
    .results;

describe('reporting', () => {
  it('hides a capsule from browse, search and its page after 3 distinct people report it; its author still sees it, as hidden', async () => {
    const author = await signedInUser();
    const [a, b, c] = await reporters();
    const word = `rep${crypto.randomUUID().slice(0, 6)}`;
    const capsule = await capsuleBy(author, { title: `Reported ${word}` });
    expect((await api('POST', `/api/capsule/${capsule.id}/report`, { token: author.token })).status).toBe(422);
    for (const p of [a, a, b]) expect((await api('POST', `/api/capsule/${capsule.id}/report`, { token: p.token })).data).toEqual({ reported: true });
    // Two people so far (a reported twice): still public, and nobody told.
    expect((await api('GET', `/api/capsule/view/${capsule.id}`)).status).toBe(200);
    expect(await noticesOf(author.id, 'community_hidden')).toEqual([]);
    // The notice's job is held here: once a channel takes it the notice lets go of its words (send-owner-notice.ts),
    // and outside the owner's quiet hours the consumer would take it before the read below.
    await captureQueues(() => api('POST', `/api/capsule/${capsule.id}/report`, { token: c.token }));
    expect((await api('GET', `/api/capsule/view/${capsule.id}`)).status).toBe(404);
    expect((await api('GET', `/api/capsule/list?search=${word}`)).data.items).toEqual([]);
    expect((await api('GET', '/api/capsule/browse')).data.map((x: { id: string }) => x.id)).not.toContain(capsule.id);
    expect((await api('GET', '/api/capsule/mine', { token: author.token })).data[0].status).toBe('hidden');
    // The author is told once, without who reported it.
    const told = await noticesOf(author.id, 'community_hidden');
    expect(told).toEqual([{ subject: `Your capsule “Reported ${word}” is hidden for review`, text: expect.stringContaining('You can still delete it') }]);
    for (const p of [a, b, c]) expect(JSON.stringify(told)).not.toContain(p.email);
    expect((await api('GET', `/api/capsule/view/${capsule.id}`, { token: author.token })).status).toBe(200);
    // Hidden, it can no longer be reported: it is not public.
    expect((await api('POST', `/api/capsule/${capsule.id}/report`, { token: (await signedInUser()).token })).status).toBe(404);
  });

  it('hides a post from its memorial and from remembrances after 3 people report it at once; its candles cannot be lit', async () => {
    const creator = await signedInUser();
    const memorial = await memorialBy(creator);
    const word = `post${crypto.randomUUID().slice(0, 6)}`;
    const post = await postOn(memorial.id, creator, `Reported ${word}`);
    const people = await reporters();
    await Promise.all(people.map((p) => api('POST', `/api/memorial/post/${post.id}/report`, { token: p.token })));
    expect((await api('GET', `/api/memorial/${memorial.id}`)).data.posts).toEqual([]);
    expect((await api('GET', `/api/memorial/posts?q=${word}`)).data.items).toEqual([]);
    expect((await api('POST', `/api/memorial/candle/${post.id}`, { token: people[0]!.token })).status).toBe(404);
    expect((await noticesOf(creator.id, 'community_hidden')).map((n) => n.subject)).toEqual(['Your post on the memorial of Ada Quill is hidden for review']);
  });
});

describe('removing a post (DELETE /api/memorial/post/{id})', () => {
  it('is open to its author and to the memorial’s creator (who tells the author), and 404 for anyone else', async () => {
    const [creator, writer, outsider] = await reporters();
    const memorial = await memorialBy(creator);
    const first = await postOn(memorial.id, writer, 'first');
    const second = await postOn(memorial.id, writer, 'second');
    expect((await api('DELETE', `/api/memorial/post/${first.id}`, { token: outsider.token })).status).toBe(404);
    expect((await api('DELETE', `/api/memorial/post/${first.id}`, { token: writer.token })).data).toEqual({ id: first.id, deleted: true });
    expect(await noticesOf(writer.id, 'community_removed')).toEqual([]);
    expect((await api('DELETE', `/api/memorial/post/${second.id}`, { token: creator.token })).status).toBe(200);
    // Removed by the memorial's creator, not by themselves: the writer is told.
    expect((await noticesOf(writer.id, 'community_removed')).map((n) => n.subject)).toEqual(['Your post on the memorial of Ada Quill was removed']);
    expect((await api('GET', `/api/memorial/${memorial.id}`)).data.posts).toEqual([]);
    expect((await api('DELETE', `/api/memorial/post/${second.id}`, { token: creator.token })).status).toBe(404);
  });
});
