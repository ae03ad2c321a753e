import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { completeDeathConfirmation } from '../src/domains/guardian/complete-confirmation';
import { api, signedInUser } from './helpers/api';
import { servicesAt } from './helpers/canary';

/**
 * A memorial page made when the owner's death is confirmed, if they asked for one
 * (docs/decisions/community.md "Memorials made at a confirmed death"): nothing public before, made once
 * however often the confirmation job runs, never for a sandbox report.
 */
type Person = Awaited<ReturnType<typeof signedInUser>>;

const WISH = { name: 'Ada Lovelace', epitaph: 'She wrote the first program.', tags: ['teachers'], cause: 'illness' };

/** A confirmed report of the owner's death, as the ladder's confirming batch leaves it. */
async function confirmedReport(owner: Person, at: number, sandbox = false) {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    `INSERT INTO death_reports (id, owner_id, status, sandbox, opened_by, opened_at, window_opened_at, window_ends_at, closed_at)
     VALUES (?1, ?2, 'confirmed', ?3, 'guardian:test', ?4, ?4, ?5, ?5)`,
  )
    .bind(id, owner.id, sandbox ? 1 : 0, at - 86_400_000, at)
    .run();
  return id;
}

const memorialsBy = async (owner: Person) =>
  (await env.DB.prepare('SELECT id, name, epitaph, tags, cause FROM memorials WHERE created_by = ?1').bind(owner.id).all()).results;

describe('a memorial page at a confirmed death', () => {
  it('is saved as a wish, public nowhere while the owner lives, and made once at the confirmation', async () => {
    const owner = await signedInUser();
    expect((await api('GET', '/api/memorial-wish', { token: owner.token })).data).toEqual({ wish: null });
    const saved = await api('PUT', '/api/memorial-wish', { token: owner.token, json: WISH });
    expect(saved.status).toBe(200);
    expect(saved.data.wish).toMatchObject({ ...WISH, avatar_url: null, made_at: null });
    const memorialId = saved.data.wish.memorial_id;
    expect((await api('GET', `/api/memorial/${memorialId}`)).status).toBe(404);
    expect(await memorialsBy(owner)).toEqual([]);

    const at = Date.now();
    const report = await confirmedReport(owner, at);
    await completeDeathConfirmation(servicesAt(at + 1000), report);
    await completeDeathConfirmation(servicesAt(at + 2000), report);
    expect(await memorialsBy(owner)).toEqual([{ id: memorialId, name: WISH.name, epitaph: WISH.epitaph, tags: '["teachers"]', cause: 'illness' }]);
    const page = await api('GET', `/api/memorial/${memorialId}`);
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ name: 'Ada Lovelace', epitaph: 'She wrote the first program.' });
    expect((await api('GET', '/api/memorial-wish', { token: owner.token })).data.wish.made_at).toBe(new Date(at + 1000).toISOString());
    const late = await api('PUT', '/api/memorial-wish', { token: owner.token, json: { ...WISH, name: 'Someone else' } });
    expect(late.status).toBe(409);
    expect((await api('DELETE', '/api/memorial-wish', { token: owner.token })).status).toBe(409);
  });

  it('is not made for a sandbox report, nor when the owner asked for none or took the wish back', async () => {
    const tester = await signedInUser();
    await api('PUT', '/api/memorial-wish', { token: tester.token, json: WISH });
    await completeDeathConfirmation(servicesAt(Date.now()), await confirmedReport(tester, Date.now(), true));
    expect(await memorialsBy(tester)).toEqual([]);

    const changedMind = await signedInUser();
    await api('PUT', '/api/memorial-wish', { token: changedMind.token, json: WISH });
    expect((await api('DELETE', '/api/memorial-wish', { token: changedMind.token })).data).toEqual({ wish: null });
    await completeDeathConfirmation(servicesAt(Date.now()), await confirmedReport(changedMind, Date.now()));
    expect(await memorialsBy(changedMind)).toEqual([]);

    const none = await signedInUser();
    await completeDeathConfirmation(servicesAt(Date.now()), await confirmedReport(none, Date.now()));
    expect(await memorialsBy(none)).toEqual([]);
  });

  it('keeps the page’s id across edits, and refuses what a memorial would refuse with 422', async () => {
    const owner = await signedInUser();
    const first = (await api('PUT', '/api/memorial-wish', { token: owner.token, json: WISH })).data.wish;
    const second = (await api('PUT', '/api/memorial-wish', { token: owner.token, json: { ...WISH, epitaph: 'Poetical science.' } })).data.wish;
    expect(second).toMatchObject({ memorial_id: first.memorial_id, epitaph: 'Poetical science.' });
    const bad = await api('PUT', '/api/memorial-wish', { token: owner.token, json: { name: ' ', avatar_url: 'http://example.com/a.png' } });
    expect(bad.status).toBe(422);
    expect(bad.data.detail.map((d: { loc: string[] }) => d.loc.at(-1)).sort()).toEqual(['avatar_url', 'name']);
    expect((await api('GET', '/api/memorial-wish')).status).toBe(401);
  });
});
