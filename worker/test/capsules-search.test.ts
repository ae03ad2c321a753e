import { describe, expect, it } from 'vitest';
import { api, signedInUser } from './helpers/api';
import { capsuleBy } from './helpers/capsules';

/**
 * GET /api/capsule/list: full-text search (FTS5) over released capsules' titles and
 * text, filtered by theme, newest first, paginated by cursor; any characters may be typed.
 */
const ids = (res: { data: { items: { id: string }[] } }) => res.data.items.map((c) => c.id);

describe('searching capsules', () => {
  it('finds a word in the title or the text, every word must match, the last word as a prefix, any theme unless one is asked', async () => {
    const author = await signedInUser();
    const tag = crypto.randomUUID().slice(0, 6).replace(/\d/g, 'q');
    const inTitle = await capsuleBy(author, { title: `Lighthouse ${tag}`, theme: 'Hope' });
    const inText = await capsuleBy(author, { title: `Untitled ${tag}`, theme: 'Love', content: [{ type: 'text', data: 'the lighthouse keeper wrote back' }] });
    await capsuleBy(author, { title: `Nothing here ${tag}`, theme: 'Hope' });

    expect(ids(await api('GET', `/api/capsule/list?search=lighthouse ${tag}`))).toEqual([inText.id, inTitle.id]);
    expect(ids(await api('GET', `/api/capsule/list?search=${tag} lightho`))).toEqual([inText.id, inTitle.id]);
    expect(ids(await api('GET', `/api/capsule/list?tag=Hope&search=lighthouse ${tag}`))).toEqual([inTitle.id]);
    expect(ids(await api('GET', `/api/capsule/list?search=keeper ${tag}`))).toEqual([inText.id]);
    expect(ids(await api('GET', `/api/capsule/list?search=LIGHTHOUSE ${tag.toUpperCase()}`))).toEqual([inText.id, inTitle.id]);
  });

  it('never errors on FTS5 syntax or odd characters: they are searched as plain words', async () => {
    const author = await signedInUser();
    const word = `odd${crypto.randomUUID().slice(0, 6)}`;
    const capsule = await capsuleBy(author, { title: `Quotes "and" stars ${word}` });
    for (const q of ['"', '"unclosed', '*', 'AND', 'a OR b NOT c', 'NEAR(a b)', '(((', 'title:x', '-x', '^', "'; DROP TABLE capsules; --", '🕯️', '%_\\']) {
      const res = await api('GET', `/api/capsule/list?search=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
    }
    expect(ids(await api('GET', `/api/capsule/list?search=${encodeURIComponent(`"quotes" AND ${word}*`)}`))).toEqual([capsule.id]);
  });

  it('pages 20 at a time with a cursor, never repeating or skipping, and an odd cursor is the first page', async () => {
    const author = await signedInUser();
    const word = `paged${crypto.randomUUID().slice(0, 6)}`;
    const made = [];
    for (let i = 0; i < 23; i++) made.push((await capsuleBy(author, { title: `${word} number ${i}` })).id);
    const first = await api('GET', `/api/capsule/list?search=${word}`);
    expect(first.data.items).toHaveLength(20);
    expect(first.data.next_cursor).toEqual(expect.any(String));
    const second = await api('GET', `/api/capsule/list?search=${word}&cursor=${first.data.next_cursor}`);
    expect(second.data.items).toHaveLength(3);
    expect(second.data.next_cursor).toBeNull();
    expect(new Set([...ids(first), ...ids(second)])).toEqual(new Set(made));
    expect(ids(await api('GET', `/api/capsule/list?search=${word}&cursor=not-a-cursor`))).toEqual(ids(first));
  });

  it('browses by theme and year', async () => {
    const author = await signedInUser();
    const advice = await capsuleBy(author, { theme: 'Advice' });
    const year = new Date().getUTCFullYear();
    const inYear = await api('GET', `/api/capsule/browse?theme=Advice&year=${year}`);
    expect(inYear.data.map((c: { id: string }) => c.id)).toContain(advice.id);
    expect(inYear.data.every((c: { theme: string }) => c.theme === 'Advice')).toBe(true);
    expect(inYear.data[0]).toEqual({
      id: expect.any(String),
      title: expect.any(String),
      theme: 'Advice',
      content: expect.any(Array),
      release_at: expect.any(String),
    });
    expect((await api('GET', `/api/capsule/browse?year=${year - 1}`)).data).toEqual([]);
    expect((await api('GET', '/api/capsule/browse?theme=Revenge')).status).toBe(422);
    expect((await api('GET', '/api/capsule/browse?year=soon')).status).toBe(422);
  });
});
