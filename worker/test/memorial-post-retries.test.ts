import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { MAX_MEMORIAL_POSTS_PER_HOUR, ZMemorialPostInput } from '../src/contracts/memorials';
import { postOnMemorial } from '../src/domains/memorials/write-memorial';
import { keyReusedDetail } from '../src/lib/create-retry';
import { createServiceContext } from '../src/wiring/service-context';
import { api, signedInUser } from './helpers/api';
import { memorialBy } from './helpers/memorials';

/**
 * A post on a memorial sent again (its answer lost, or Post pressed twice; docs/decisions/create-retries.md): with
 * the same idempotency_key it answers with the post the first try wrote — the page shows the words once, and the
 * hour's limit counts them once.
 */
const post = (token: string, memorialId: string, json: Record<string, unknown>) => api('POST', `/api/memorial/${memorialId}/post`, { token, json });

const postsOn = async (memorialId: string, authorId: string) =>
  (
    await env.DB.prepare('SELECT id FROM memorial_posts WHERE memorial_id = ? AND author_id = ? ORDER BY created_at, id')
      .bind(memorialId, authorId)
      .all<{ id: string }>()
  ).results.map((r) => r.id);

describe('a memorial post sent again with the same idempotency_key', () => {
  it('answers the author with the post the first call wrote, once on the page', async () => {
    const [creator, author] = await Promise.all([signedInUser(), signedInUser()]);
    const memorial = await memorialBy(creator);
    const key = crypto.randomUUID();
    const first = await post(author.token, memorial.id, { text: 'We miss you', idempotency_key: key });
    const again = await post(author.token, memorial.id, { text: 'We miss you', idempotency_key: key });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.data).toEqual(first.data);
    expect(await postsOn(memorial.id, author.id)).toEqual([first.data.id]);
    const page = await api('GET', `/api/memorial/${memorial.id}`, { token: author.token });
    expect(page.data.posts.map((p: { id: string }) => p.id)).toEqual([first.data.id]);
  });

  it('writes one post when the tries race each other', async () => {
    const [creator, author] = await Promise.all([signedInUser(), signedInUser()]);
    const memorial = await memorialBy(creator);
    const key = crypto.randomUUID();
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(author.token, memorial.id, { text: 'Always', idempotency_key: key })));
    expect(answers.map((a) => a.status)).toEqual(Array(5).fill(201));
    const ids = await postsOn(memorial.id, author.id);
    expect(ids).toHaveLength(1);
    expect(answers.map((a) => a.data.id)).toEqual(Array(5).fill(ids[0]));
  });

  it("writes one post when tries that all looked before any wrote race to the write (the key's unique index decides)", async () => {
    const [creator, author] = await Promise.all([signedInUser(), signedInUser()]);
    const memorial = await memorialBy(creator);
    const input = ZMemorialPostInput.parse({ text: 'Always', idempotency_key: crypto.randomUUID() });
    const user = (await env.DB.prepare('SELECT * FROM users WHERE id = ?').bind(author.id).first()) as never;
    // Each try starts before any of them writes (their steps interleave in one isolate): the write decides.
    const answers = await Promise.all(Array.from({ length: 4 }, () => postOnMemorial(createServiceContext(env), user, memorial.id, input)));
    const ids = await postsOn(memorial.id, author.id);
    expect(ids).toHaveLength(1);
    expect(answers.map((a) => a.id)).toEqual(Array(4).fill(ids[0]));
  });

  it("counts a retry once in the hour's limit: the retry of the last allowed post is answered, not refused", async () => {
    const [creator, author] = await Promise.all([signedInUser(), signedInUser()]);
    const memorial = await memorialBy(creator);
    for (let i = 1; i < MAX_MEMORIAL_POSTS_PER_HOUR; i++) expect((await post(author.token, memorial.id, { text: `Post ${i}` })).status).toBe(201);
    const key = crypto.randomUUID();
    const last = await post(author.token, memorial.id, { text: 'The last one', idempotency_key: key });
    const again = await post(author.token, memorial.id, { text: 'The last one', idempotency_key: key });
    expect([last.status, again.status]).toEqual([201, 201]);
    expect(again.data.id).toBe(last.data.id);
    expect((await post(author.token, memorial.id, { text: 'One more' })).status).toBe(429);
  });

  it('refuses the key with other words, or on another memorial (409), writing nothing', async () => {
    const [creator, author] = await Promise.all([signedInUser(), signedInUser()]);
    const [memorial, other] = [await memorialBy(creator), await memorialBy(creator, { name: 'Bo Quill' })];
    const key = crypto.randomUUID();
    const first = await post(author.token, memorial.id, { text: 'We miss you', idempotency_key: key });
    const edited = await post(author.token, memorial.id, { text: 'We miss you so', idempotency_key: key });
    const elsewhere = await post(author.token, other.id, { text: 'We miss you', idempotency_key: key });
    expect([edited.status, elsewhere.status]).toEqual([409, 409]);
    expect(edited.data).toEqual({ detail: keyReusedDetail('memorial post') });
    expect(await postsOn(memorial.id, author.id)).toEqual([first.data.id]);
    expect(await postsOn(other.id, author.id)).toEqual([]);
  });

  it("keeps another author's post apart when they choose the same key", async () => {
    const [creator, author, outsider] = await Promise.all([signedInUser(), signedInUser(), signedInUser()]);
    const memorial = await memorialBy(creator);
    const mine = await post(author.token, memorial.id, { text: 'We miss you', idempotency_key: 'the-same-key-for-both' });
    const theirs = await post(outsider.token, memorial.id, { text: 'We miss you', idempotency_key: 'the-same-key-for-both' });
    expect(theirs.status).toBe(201);
    expect(theirs.data.id).not.toBe(mine.data.id);
  });

  it('writes a new post for each call without a key, as before', async () => {
    const [creator, author] = await Promise.all([signedInUser(), signedInUser()]);
    const memorial = await memorialBy(creator);
    await post(author.token, memorial.id, { text: 'Again' });
    await post(author.token, memorial.id, { text: 'Again' });
    expect(await postsOn(memorial.id, author.id)).toHaveLength(2);
  });
});
