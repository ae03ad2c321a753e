import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { api, signedInUser } from './helpers/api';
import { memorialBy, postOn } from './helpers/memorials';

/**
 * Remembrance search (GET /api/memorial/posts): posts found by their memorial's name,
 * tag and cause and by their words (FTS5), newest first or by candles, paged; any characters are safe.
 */
type Page = { data: { items: { id: string; memorial_name: string; text: string }[]; next_cursor: string | null } };
const texts = (res: Page) => res.data.items.map((r) => r.text);

describe('searching remembrances', () => {
  it('finds posts by the memorial’s name, tag and cause, and by their words, in the stated order', async () => {
    const [creator, friend] = await Promise.all([signedInUser(), signedInUser()]);
    const mark = `m${crypto.randomUUID().slice(0, 6).replace(/-/g, '')}`;
    const soldier = await memorialBy(creator, { name: `Walter ${mark}`, tags: ['veterans'], cause: 'heart failure' });
    const painter = await memorialBy(creator, { name: `Frida ${mark}`, tags: ['artists'], cause: 'pneumonia' });
    await postOn(soldier.id, friend, `He came home ${mark}`);
    await postOn(painter.id, friend, `Her colours ${mark}`);
    await postOn(soldier.id, creator, `Salute ${mark}`);

    expect(texts(await api('GET', `/api/memorial/posts?name=walter ${mark}`))).toEqual([`Salute ${mark}`, `He came home ${mark}`]);
    expect(texts(await api('GET', `/api/memorial/posts?q=${mark}&tag=artists`))).toEqual([`Her colours ${mark}`]);
    expect(texts(await api('GET', `/api/memorial/posts?q=${mark}&cause=pneumo`))).toEqual([`Her colours ${mark}`]);
    expect(texts(await api('GET', `/api/memorial/posts?q=colours ${mark}`))).toEqual([`Her colours ${mark}`]);
    // The name filter looks at names only: a word of a post's text is not a name.
    expect(texts(await api('GET', `/api/memorial/posts?name=salute&q=${mark}`))).toEqual([]);
    const first = await api('GET', `/api/memorial/posts?q=${mark}`);
    expect(first.data.items[0]).toEqual({
      id: expect.any(String),
      memorial_id: soldier.id,
      memorial_name: `Walter ${mark}`,
      avatar_url: null,
      text: `Salute ${mark}`,
      media_url: null,
      candle_count: 0,
      timestamp: expect.any(String),
    });
    expect(first.text).not.toContain(friend.id);
    expect(first.text).not.toContain(creator.email);
  });

  it('sorts by candles, then newest, and pages both ways without repeats', async () => {
    const [creator, a, b] = await Promise.all([signedInUser(), signedInUser(), signedInUser()]);
    const mark = `c${crypto.randomUUID().slice(0, 6).replace(/-/g, '')}`;
    const memorial = await memorialBy(creator, { name: `Candle ${mark}` });
    const posts = [];
    // Three writers: each may post 10 an hour.
    for (let i = 0; i < 22; i++) posts.push(await postOn(memorial.id, i < 10 ? creator : i < 20 ? a : b, `post ${i} ${mark}`));
    for (const p of [a, b]) await api('POST', `/api/memorial/candle/${posts[3]!.id}`, { token: p.token });
    await api('POST', `/api/memorial/candle/${posts[7]!.id}`, { token: a.token });

    const byCandles = await api('GET', `/api/memorial/posts?q=${mark}&sort=candles`);
    expect(texts(byCandles).slice(0, 3)).toEqual([`post 3 ${mark}`, `post 7 ${mark}`, `post 21 ${mark}`]);
    const rest = await api('GET', `/api/memorial/posts?q=${mark}&sort=candles&cursor=${byCandles.data.next_cursor}`);
    expect(rest.data.items).toHaveLength(2);
    expect(new Set([...texts(byCandles), ...texts(rest)]).size).toBe(22);

    const newest = await api('GET', `/api/memorial/posts?q=${mark}`);
    expect(texts(newest)[0]).toBe(`post 21 ${mark}`);
    const older = await api('GET', `/api/memorial/posts?q=${mark}&cursor=${newest.data.next_cursor}`);
    expect(texts(older)).toEqual([`post 1 ${mark}`, `post 0 ${mark}`]);
    expect(older.data.next_cursor).toBeNull();
  });

  it('never errors on FTS5 syntax or odd characters, in any field', async () => {
    for (const v of ['"', '*', 'NEAR(a b)', 'a OR b', '(((', 'name:x', '-', '🕯️', "'; DROP TABLE memorial_posts; --"]) {
      for (const field of ['name', 'cause', 'q', 'tag']) {
        const res = await api('GET', `/api/memorial/posts?${field}=${encodeURIComponent(v)}`);
        expect(res.status, `${field}=${v}`).toBe(200);
      }
    }
    expect((await api('GET', '/api/memorial/posts?sort=loudest')).status).toBe(422);
  });

  it('keeps the index in step: a post goes from it with its memorial’s creator’s account', async () => {
    const creator = await signedInUser();
    const memorial = await memorialBy(creator);
    const post = await postOn(memorial.id, creator);
    const count = () => env.DB.prepare('SELECT count(*) AS n FROM remembrances_fts WHERE post_id = ?1').bind(post.id).first<{ n: number }>();
    expect((await count())?.n).toBe(1);
    await env.DB.prepare('DELETE FROM users WHERE id = ?1').bind(creator.id).run();
    expect((await count())?.n).toBe(0);
  });
});
