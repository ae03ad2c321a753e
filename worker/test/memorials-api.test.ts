import { describe, expect, it } from 'vitest';
import { api, signedInUser } from './helpers/api';
import { capsuleBy } from './helpers/capsules';
import { memorialBy, postOn } from './helpers/memorials';

/**
 * Memorial pages (docs/decisions/community.md): made by a signed-in person, read by anyone, with posts (non-blank,
 * https media only, rate-limited) and the public capsules linked to them.
 */
describe('a memorial page', () => {
  it('is made by a signed-in person and read by anyone, with its released capsules only', async () => {
    const [creator, writer] = await Promise.all([signedInUser(), signedInUser()]);
    const made = await api('POST', '/api/memorial/create', {
      token: creator.token,
      json: {
        name: ' Grace Hopper ',
        avatar_url: 'https://example.com/grace.png',
        epitaph: 'It is easier to ask forgiveness',
        tags: ['Veterans', 'teachers', 'veterans'],
        cause: '',
      },
    });
    expect(made.status).toBe(201);
    expect(made.data).toMatchObject({ name: 'Grace Hopper', tags: ['veterans', 'teachers'], cause: null, capsules: [], posts: [] });
    const shown = await capsuleBy(writer, { title: 'For Grace', memorial_id: made.data.id });
    await capsuleBy(writer, { title: 'Not yet', memorial_id: made.data.id, release_at: '2099-01-01' });

    const page = await api('GET', `/api/memorial/${made.data.id}`);
    expect(page.status).toBe(200);
    expect(page.data.capsules).toEqual([{ id: shown.id, title: 'For Grace' }]);
    expect(page.text).not.toContain(creator.id);
    expect(page.text).not.toContain(creator.email);
    expect((await api('GET', `/api/memorial/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await api('POST', '/api/memorial/create', { json: { name: 'x' } })).status).toBe(401);
  });

  it('refuses a blank name and an avatar that is not https (422)', async () => {
    const creator = await signedInUser();
    for (const json of [{ name: '  ' }, { name: 'x', avatar_url: 'http://example.com/a.png' }, { name: 'x', avatar_url: 'javascript:alert(1)' }]) {
      expect((await api('POST', '/api/memorial/create', { token: creator.token, json })).status, JSON.stringify(json)).toBe(422);
    }
  });

  it('is found by name, epitaph or cause, and by tag, with search characters taken literally', async () => {
    const creator = await signedInUser();
    const mark = crypto.randomUUID().slice(0, 8);
    const painter = await memorialBy(creator, { name: `Frida ${mark}`, tags: ['artists'], cause: 'illness' });
    const soldier = await memorialBy(creator, { name: `Tom ${mark}`, tags: ['veterans'], epitaph: 'Came home 100% of the time' });
    const ids = (res: { data: { id: string }[] }) => res.data.map((m) => m.id);
    expect(ids(await api('GET', `/api/memorial/list?q=${mark}`))).toEqual([soldier.id, painter.id]);
    expect(ids(await api('GET', `/api/memorial/list?q=${mark}&tag=Artists`))).toEqual([painter.id]);
    expect(ids(await api('GET', '/api/memorial/list?q=100%25'))).toEqual([soldier.id]);
    expect(ids(await api('GET', `/api/memorial/list?q=${encodeURIComponent('_%')}`))).toEqual([]);
  });

  it('answers the longest allowed search (200 characters), found or not, never 500', async () => {
    const creator = await signedInUser();
    const epitaph = `${crypto.randomUUID()} ${'remembered always '.repeat(10)}`.slice(0, 200);
    const memorial = await memorialBy(creator, { name: 'Long epitaph', epitaph });
    const found = await api('GET', `/api/memorial/list?q=${encodeURIComponent(epitaph)}`);
    expect(found.status).toBe(200);
    expect(found.data.map((m: { id: string }) => m.id)).toEqual([memorial.id]);
    const none = await api('GET', `/api/memorial/list?q=${'%_'.repeat(100)}`);
    expect(none.status).toBe(200);
    expect(none.data).toEqual([]);
  });
});

describe('posting on a memorial (POST /api/memorial/{id}/post)', () => {
  it('keeps the text as written (script is text), and shows posts newest first without their author', async () => {
    const [creator, friend] = await Promise.all([signedInUser(), signedInUser()]);
    const memorial = await memorialBy(creator);
    const first = await api('POST', `/api/memorial/${memorial.id}/post`, {
      token: friend.token,
      json: { text: '<script>alert("hi")</script> we remember', media_url: 'https://example.com/photo.jpg' },
    });
    expect(first.status).toBe(201);
    expect(first.data).toMatchObject({ text: '<script>alert("hi")</script> we remember', media_url: 'https://example.com/photo.jpg', candle_count: 0 });
    const second = await postOn(memorial.id, creator, 'later words');
    const page = await api('GET', `/api/memorial/${memorial.id}?sort=newest`);
    expect(page.data.posts.map((p: { id: string }) => p.id)).toEqual([second.id, first.data.id]);
    expect(page.text).not.toContain(friend.id);
    // Who may remove each post, as each caller sees it: its author, and the memorial's creator.
    const canRemove = async (token?: string) =>
      (await api('GET', `/api/memorial/${memorial.id}`, { token })).data.posts.map((p: { can_remove: boolean }) => p.can_remove);
    expect(await canRemove(creator.token)).toEqual([true, true]);
    expect(await canRemove(friend.token)).toEqual([false, true]);
    expect(await canRemove((await signedInUser()).token)).toEqual([false, false]);
    expect(await canRemove()).toEqual([false, false]);
  });

  it('refuses blank text, non-https media and overlong text (422), an unknown memorial (404) and a visitor (401)', async () => {
    const [creator, friend] = await Promise.all([signedInUser(), signedInUser()]);
    const memorial = await memorialBy(creator);
    for (const json of [
      { text: '   ' },
      {},
      { text: 'x'.repeat(2001) },
      { text: 'hi', media_url: 'http://example.com/a.jpg' },
      { text: 'hi', media_url: 'javascript:alert(1)' },
      { text: 'hi', media_url: 'data:text/html,<script>1</script>' },
    ]) {
      const res = await api('POST', `/api/memorial/${memorial.id}/post`, { token: friend.token, json });
      expect(res.status, JSON.stringify(json)).toBe(422);
      expect(res.data.detail).toEqual(expect.any(Array));
    }
    expect((await api('POST', `/api/memorial/${crypto.randomUUID()}/post`, { token: friend.token, json: { text: 'hi' } })).status).toBe(404);
    expect((await api('POST', `/api/memorial/${memorial.id}/post`, { json: { text: 'hi' } })).status).toBe(401);
    expect((await api('GET', `/api/memorial/${memorial.id}`)).data.posts).toEqual([]);
  });

  it('allows 10 posts an hour per account, then 429 with Retry-After', async () => {
    const [creator, friend] = await Promise.all([signedInUser(), signedInUser()]);
    const memorial = await memorialBy(creator);
    for (let i = 0; i < 10; i++) await postOn(memorial.id, friend, `post ${i}`);
    const refused = await api('POST', `/api/memorial/${memorial.id}/post`, { token: friend.token, json: { text: 'one more' } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await api('POST', `/api/memorial/${memorial.id}/post`, { token: creator.token, json: { text: 'others still can' } })).status).toBe(201);
  });
});
