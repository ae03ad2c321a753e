import { describe, expect, it } from 'vitest';
import { api, signedInUser } from './helpers/api';
import { capsuleBy } from './helpers/capsules';

/**
 * An anonymous capsule never carries its author: every public answer that can show
 * it — browse, search, the page, the tRPC procedures, a 404, a refused edit — is searched for the
 * author's email and id.
 */
describe('an anonymous capsule', () => {
  it('never names its author in any public answer, to visitors or to other signed-in people', async () => {
    const [author, reader] = await Promise.all([signedInUser(), signedInUser()]);
    const word = `nameless${crypto.randomUUID().slice(0, 8)}`;
    const capsule = await capsuleBy(author, { title: `A secret ${word}`, theme: 'Pranks', is_anonymous: true });
    expect(capsule.user_email).toBeNull();
    const sealed = await capsuleBy(author, { title: `Later ${word}`, is_anonymous: true, release_at: '2099-01-01' });

    const year = new Date().getUTCFullYear();
    const input = (o: unknown) => encodeURIComponent(JSON.stringify(o));
    const answers = [];
    for (const token of [undefined, reader.token]) {
      answers.push(
        await api('GET', '/api/capsule/browse', { token }),
        await api('GET', `/api/capsule/browse?theme=Pranks&year=${year}`, { token }),
        await api('GET', '/api/capsule/list', { token }),
        await api('GET', `/api/capsule/list?tag=Pranks&search=${word}`, { token }),
        await api('GET', `/api/capsule/view/${capsule.id}`, { token }),
        await api('GET', `/api/capsule/view/${sealed.id}`, { token }),
        await api('GET', `/api/trpc/capsule.view?input=${input({ id: capsule.id })}`, { token }),
        await api('GET', `/api/trpc/capsule.list?input=${input({ search: word })}`, { token }),
        await api('GET', `/api/trpc/capsule.browse?input=${input({})}`, { token }),
      );
    }
    answers.push(
      await api('PATCH', `/api/capsule/${capsule.id}`, { token: reader.token, json: { title: 'x', theme: 'Hope', content: [{ type: 'text', data: 'x' }] } }),
      await api('DELETE', `/api/capsule/${capsule.id}`, { token: reader.token }),
      await api('POST', `/api/capsule/${capsule.id}/publish`, { token: reader.token }),
    );

    const viewed = answers[4]!;
    expect(viewed.status).toBe(200);
    expect(viewed.data).toMatchObject({ id: capsule.id, user_email: null, is_anonymous: true });
    expect(answers[3]!.data.items.map((c: { id: string }) => c.id)).toEqual([capsule.id]);
    for (const res of answers) {
      expect(res.text).not.toContain(author.email);
      expect(res.text).not.toContain(author.id);
      expect(res.text.toLowerCase()).not.toContain(author.email.split('@')[0]!.toLowerCase());
    }
  });

  it('still names the author of a capsule that is not anonymous', async () => {
    const author = await signedInUser();
    const capsule = await capsuleBy(author, { is_anonymous: false });
    const res = await api('GET', `/api/capsule/view/${capsule.id}`);
    expect(res.data).toMatchObject({ user_email: author.email, is_anonymous: false });
    expect(res.text).not.toContain(author.id);
  });
});
