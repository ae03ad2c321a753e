import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { api, signedInUser } from './helpers/api';
import { capsuleBy } from './helpers/capsules';
import { memorialBy, postOn } from './helpers/memorials';

/**
 * The moderators' review queue (docs/decisions/community.md "Moderators"): the configured moderators
 * (MODERATOR_EMAILS, set for the tests in worker/vitest.config.mts) see what reports hid and restore or
 * remove each; the author of a removed item is told. Everyone else sees nothing of the queue.
 */
async function hiddenBy3(path: string) {
  const people = await Promise.all([signedInUser(), signedInUser(), signedInUser()]);
  for (const p of people) expect((await api('POST', path, { token: p.token })).status).toBe(200);
}

describe('the review queue', () => {
  it('lists hidden capsules and posts to moderators only; restore makes one public again, remove deletes it and tells its author', async () => {
    const moderator = await signedInUser({ email: 'moderator@example.com' });
    const [author, someone] = await Promise.all([signedInUser(), signedInUser()]);
    const capsule = await capsuleBy(author, { title: 'Reported capsule', content: [{ type: 'text', data: 'the words' }] });
    const memorial = await memorialBy(someone);
    const post = await postOn(memorial.id, author, 'Reported post');
    await hiddenBy3(`/api/capsule/${capsule.id}/report`);
    await hiddenBy3(`/api/memorial/post/${post.id}/report`);

    expect((await api('GET', '/api/moderation/queue', { token: someone.token })).status).toBe(403);
    expect((await api('GET', '/api/moderation/status', { token: someone.token })).data).toEqual({ moderator: false, waiting: 0 });
    const queue = await api('GET', '/api/moderation/queue', { token: moderator.token });
    expect(queue.status).toBe(200);
    expect((await api('GET', '/api/moderation/status', { token: moderator.token })).data).toEqual({ moderator: true, waiting: queue.data.length });
    expect(queue.data).toEqual([
      { type: 'capsule', id: capsule.id, label: 'Reported capsule', text: 'the words', reports: 3, hidden_at: expect.any(String) },
      { type: 'post', id: post.id, label: 'Ada Quill', text: 'Reported post', reports: 3, hidden_at: expect.any(String) },
    ]);

    expect((await api('POST', `/api/moderation/capsule/${capsule.id}`, { token: someone.token, json: { decision: 'restore' } })).status).toBe(404);
    expect((await api('POST', `/api/moderation/capsule/${capsule.id}`, { token: moderator.token, json: {} })).status).toBe(422);
    const restored = await api('POST', `/api/moderation/capsule/${capsule.id}`, { token: moderator.token, json: { decision: 'restore' } });
    expect(restored.data).toEqual({ type: 'capsule', id: capsule.id, decision: 'restore' });
    expect((await api('GET', `/api/capsule/view/${capsule.id}`)).status).toBe(200);
    // Its reports are cleared: one new report does not hide it again.
    await api('POST', `/api/capsule/${capsule.id}/report`, { token: someone.token });
    expect((await api('GET', `/api/capsule/view/${capsule.id}`)).status).toBe(200);

    const removed = await api('POST', `/api/moderation/post/${post.id}`, { token: moderator.token, json: { decision: 'remove' } });
    expect(removed.status).toBe(200);
    expect((await api('POST', `/api/moderation/post/${post.id}`, { token: moderator.token, json: { decision: 'remove' } })).status).toBe(404);
    expect((await api('GET', '/api/moderation/queue', { token: moderator.token })).data).toEqual([]);
    const told = await env.DB.prepare("SELECT subject FROM owner_notices WHERE user_id = ?1 AND kind = 'community_removed'")
      .bind(author.id)
      .all<{ subject: string }>();
    expect(told.results.map((r) => r.subject)).toEqual(['Your post on the memorial of Ada Quill was removed']);
  });

  it('reads the moderators list case-insensitively', async () => {
    const second = await signedInUser({ email: 'second.moderator@example.com' });
    expect((await api('GET', '/api/moderation/queue', { token: second.token })).status).toBe(200);
  });
});
