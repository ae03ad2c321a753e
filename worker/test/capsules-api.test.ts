import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { capsuleCursor } from '../src/contracts/capsules';
import { browseCapsules, listCapsules, viewCapsule } from '../src/domains/capsules/read-capsules';
import { api, signedInUser } from './helpers/api';
import { servicesAt } from './helpers/canary';
import { capsuleBy, daysFromNow } from './helpers/capsules';

/**
 * Confession capsules (docs/decisions/community.md): written by a signed-in author, public from their release
 * date, edited before it, deleted at any time; the confessions consent governs them.
 */
const DAY = 86_400_000;

describe('writing a capsule (POST /api/capsule/create)', () => {
  it('makes a capsule released now when release_at is empty, shown to its author in My capsules', async () => {
    const author = await signedInUser();
    const res = await api('POST', '/api/capsule/create', {
      token: author.token,
      json: { title: '  Dear stranger ', theme: 'Advice', is_anonymous: false, release_at: '', content: [{ type: 'text', data: 'Call your mother.' }] },
    });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({
      title: 'Dear stranger',
      theme: 'Advice',
      user_email: author.email,
      status: 'released',
      content: [{ type: 'text', data: 'Call your mother.' }],
    });
    const mine = await api('GET', '/api/capsule/mine', { token: author.token });
    expect(mine.data.map((c: { id: string }) => c.id)).toEqual([res.data.id]);
  });

  it('refuses a blank title, an unknown theme, no content, a past release date and audio items (422), and a visitor (401)', async () => {
    const author = await signedInUser();
    const base = { title: 'A title', theme: 'Love', content: [{ type: 'text', data: 'words' }] };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, title: '   ' }, 'title'],
      [{ ...base, theme: 'Revenge' }, 'theme'],
      [{ ...base, content: [] }, 'content'],
      [{ ...base, content: [{ type: 'text', data: '  ' }] }, 'content'],
      [{ ...base, release_at: '2001-01-01' }, 'release_at'],
      [{ ...base, content: [{ type: 'audio', data: 'x' }] }, 'content'],
      [{ ...base, memorial_id: crypto.randomUUID() }, 'memorial_id'],
    ];
    for (const [json, field] of cases) {
      const res = await api('POST', '/api/capsule/create', { token: author.token, json });
      expect(res.status, JSON.stringify(json)).toBe(422);
      expect(res.data.detail[0].loc).toContain(field);
    }
    expect((await api('POST', '/api/capsule/create', { json: base })).status).toBe(401);
    expect((await api('GET', '/api/capsule/mine', { token: author.token })).data).toEqual([]);
  });
});

describe('before its release date', () => {
  it('is 404 for a visitor and for other signed-in people, readable by its author, and in no browse or search until the date', async () => {
    const [author, outsider] = await Promise.all([signedInUser(), signedInUser()]);
    const word = `sealed${crypto.randomUUID().slice(0, 8)}`;
    const capsule = await capsuleBy(author, { title: `Open in a week ${word}`, release_at: daysFromNow(7) });
    expect(capsule.status).toBe('scheduled');

    const asVisitor = await api('GET', `/api/capsule/view/${capsule.id}`);
    expect(asVisitor.status).toBe(404);
    expect(asVisitor.data).toEqual({ detail: 'Capsule not found' });
    expect((await api('GET', `/api/capsule/view/${capsule.id}`, { token: outsider.token })).data).toEqual(asVisitor.data);
    expect((await api('GET', `/api/capsule/view/${capsule.id}`, { token: author.token })).status).toBe(200);
    expect((await api('GET', `/api/capsule/list?search=${word}`)).data.items).toEqual([]);
    expect((await api('GET', '/api/capsule/browse')).data.map((c: { id: string }) => c.id)).not.toContain(capsule.id);

    // Eight days on, it is everyone's.
    const later = servicesAt(Date.now() + 8 * DAY);
    expect((await viewCapsule(later, null, capsule.id)).title).toBe(`Open in a week ${word}`);
    expect((await listCapsules(later, { search: word })).items.map((c) => c.id)).toEqual([capsule.id]);
    expect((await browseCapsules(later, {})).map((c) => c.id)).toContain(capsule.id);
  });

  it('can be edited by its author; after release an edit is 409, and an outsider’s edit or delete is 404', async () => {
    const [author, outsider] = await Promise.all([signedInUser(), signedInUser()]);
    const capsule = await capsuleBy(author, { release_at: daysFromNow(3) });
    const edit = { title: 'Changed my mind', theme: 'Pranks', is_anonymous: true, release_at: daysFromNow(5), content: [{ type: 'text', data: 'new words' }] };
    expect((await api('PATCH', `/api/capsule/${capsule.id}`, { token: outsider.token, json: edit })).status).toBe(404);
    expect((await api('DELETE', `/api/capsule/${capsule.id}`, { token: outsider.token })).status).toBe(404);
    const edited = await api('PATCH', `/api/capsule/${capsule.id}`, { token: author.token, json: edit });
    expect(edited.status).toBe(200);
    expect(edited.data).toMatchObject({
      title: 'Changed my mind',
      theme: 'Pranks',
      is_anonymous: true,
      user_email: null,
      content: [{ type: 'text', data: 'new words' }],
    });

    const retitled = await api('PATCH', `/api/capsule/${capsule.id}`, { token: author.token, json: { title: 'Only the title' } });
    expect(retitled.data).toMatchObject({ title: 'Only the title', theme: 'Pranks', is_anonymous: true, released_at: edited.data.released_at });
    expect(retitled.data.content).toEqual([{ type: 'text', data: 'new words' }]);
    const blank = await api('PATCH', `/api/capsule/${capsule.id}`, { token: author.token, json: { content: [] } });
    expect(blank.status).toBe(422);
    expect((await api('GET', `/api/capsule/view/${capsule.id}`, { token: author.token })).data.title).toBe('Only the title');

    const released = await capsuleBy(author);
    const late = await api('PATCH', `/api/capsule/${released.id}`, { token: author.token, json: edit });
    expect(late.status).toBe(409);
    expect(late.data.detail).toContain('already released');
  });
});

describe('deleting a capsule', () => {
  it('takes it away from everyone: view, browse and search', async () => {
    const author = await signedInUser();
    const word = `gone${crypto.randomUUID().slice(0, 8)}`;
    const capsule = await capsuleBy(author, { content: [{ type: 'text', data: `soon ${word}` }] });
    expect((await api('GET', `/api/capsule/list?search=${word}`)).data.items).toHaveLength(1);
    expect((await api('DELETE', `/api/capsule/${capsule.id}`, { token: author.token })).status).toBe(200);
    expect((await api('GET', `/api/capsule/view/${capsule.id}`)).status).toBe(404);
    expect((await api('GET', `/api/capsule/list?search=${word}`)).data.items).toEqual([]);
    expect((await api('GET', '/api/capsule/browse')).data.map((c: { id: string }) => c.id)).not.toContain(capsule.id);
    expect((await api('DELETE', `/api/capsule/${capsule.id}`, { token: author.token })).status).toBe(404);
    const indexed = await env.DB.prepare('SELECT count(*) AS n FROM capsules_fts WHERE capsule_id = ?1').bind(capsule.id).first<{ n: number }>();
    expect(indexed?.n).toBe(0);
  });
});

describe('the confessions consent', () => {
  it('when withdrawn, unpublishes the author’s capsules and refuses new ones; given again, each is published by its author', async () => {
    const author = await signedInUser();
    const capsule = await capsuleBy(author);
    expect((await api('GET', `/api/capsule/view/${capsule.id}`)).status).toBe(200);

    expect((await api('POST', '/api/legal/consent/confessions', { token: author.token, json: { consent: false } })).status).toBe(200);
    expect((await api('GET', `/api/capsule/view/${capsule.id}`)).status).toBe(404);
    expect((await api('GET', '/api/capsule/browse')).data.map((c: { id: string }) => c.id)).not.toContain(capsule.id);
    const refused = await api('POST', '/api/capsule/create', {
      token: author.token,
      json: { title: 't', theme: 'Hope', content: [{ type: 'text', data: 'x' }] },
    });
    expect(refused.status).toBe(403);
    expect(refused.data.detail).toContain('You withdrew your confessions consent');
    expect((await api('POST', `/api/capsule/${capsule.id}/publish`, { token: author.token })).status).toBe(403);
    expect((await api('GET', '/api/capsule/mine', { token: author.token })).data[0].status).toBe('unpublished');

    await api('POST', '/api/legal/consent/confessions', { token: author.token, json: { consent: true } });
    expect((await api('GET', `/api/capsule/view/${capsule.id}`)).status).toBe(404);
    const published = await api('POST', `/api/capsule/${capsule.id}/publish`, { token: author.token });
    expect(published.status).toBe(200);
    expect(published.data.status).toBe('released');
    expect((await api('GET', `/api/capsule/view/${capsule.id}`)).status).toBe(200);
  });
});

describe('browsing page by page (GET /api/capsule/browse?cursor)', () => {
  it('gives 50 at a time, newest first, and the next page after the last one shown: none repeated, none skipped', async () => {
    const author = await signedInUser();
    // 55 capsules opened in 2001, one a day (inserted as the years passed: a create cannot date one in the past).
    const ids: string[] = [];
    for (let day = 0; day < 55; day += 1) {
      const id = crypto.randomUUID();
      ids.push(id);
      await env.DB.prepare(
        "INSERT INTO capsules (id, author_id, title, theme, is_anonymous, release_at, created_at, updated_at) VALUES (?1, ?2, ?3, 'Pranks', 0, ?4, ?4, ?4)",
      )
        .bind(id, author.id, `Day ${day}`, Date.UTC(2001, 0, 1 + day, 12))
        .run();
    }
    const first = await api('GET', '/api/capsule/browse?theme=Pranks&year=2001');
    expect(first.data).toHaveLength(50);
    const last = first.data.at(-1);
    const cursor = capsuleCursor(last.release_at, last.id);
    const second = await api('GET', `/api/capsule/browse?theme=Pranks&year=2001&cursor=${encodeURIComponent(cursor)}`);
    const shown = [...first.data, ...second.data].map((c: { id: string }) => c.id);
    expect(shown).toEqual([...ids].reverse());
    // An odd cursor is the first page, never an error.
    expect((await api('GET', '/api/capsule/browse?theme=Pranks&year=2001&cursor=%%%')).status).toBe(200);
  });
});
