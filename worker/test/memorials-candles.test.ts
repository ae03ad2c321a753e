import { describe, expect, it } from 'vitest';
import { api, signedInUser } from './helpers/api';
import { memorialBy, postOn } from './helpers/memorials';

/**
 * Candles: one per signed-in person per post, a second light changes nothing, and
 * the count is exact when many people light at once.
 */
describe('lighting a candle (POST /api/memorial/candle/{post_id})', () => {
  it('counts one per person: lighting again answers 200 with the same count', async () => {
    const [creator, friend] = await Promise.all([signedInUser(), signedInUser()]);
    const memorial = await memorialBy(creator);
    const post = await postOn(memorial.id, creator);
    const lit = await api('POST', `/api/memorial/candle/${post.id}`, { token: friend.token });
    expect(lit.status).toBe(200);
    expect(lit.data).toEqual({ post_id: post.id, candle_count: 1, lit_by_me: true });
    const again = await api('POST', `/api/memorial/candle/${post.id}`, { token: friend.token });
    expect(again.status).toBe(200);
    expect(again.data.candle_count).toBe(1);
    expect((await api('POST', `/api/memorial/candle/${post.id}`, { token: creator.token })).data.candle_count).toBe(2);

    const asFriend = await api('GET', `/api/memorial/${memorial.id}`, { token: friend.token });
    expect(asFriend.data.posts[0]).toMatchObject({ candle_count: 2, lit_by_me: true });
    expect((await api('GET', `/api/memorial/${memorial.id}`)).data.posts[0].lit_by_me).toBe(false);
    expect((await api('POST', `/api/memorial/candle/${post.id}`)).status).toBe(401);
    expect((await api('POST', `/api/memorial/candle/${crypto.randomUUID()}`, { token: friend.token })).status).toBe(404);
  });

  it('is exact under concurrency: 30 people lighting 3 times each at once make 30 candles', async () => {
    const creator = await signedInUser();
    const memorial = await memorialBy(creator);
    const post = await postOn(memorial.id, creator);
    const people = await Promise.all(Array.from({ length: 30 }, () => signedInUser()));
    const answers = await Promise.all(people.flatMap((p) => [1, 2, 3].map(() => api('POST', `/api/memorial/candle/${post.id}`, { token: p.token }))));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(Math.max(...answers.map((a) => a.data.candle_count))).toBe(30);
    expect((await api('GET', `/api/memorial/${memorial.id}`)).data.posts[0].candle_count).toBe(30);
  });

  it('sorts a memorial’s posts by candles, then newest', async () => {
    const [creator, a, b] = await Promise.all([signedInUser(), signedInUser(), signedInUser()]);
    const memorial = await memorialBy(creator);
    const quiet = await postOn(memorial.id, creator, 'quiet');
    const loved = await postOn(memorial.id, creator, 'loved');
    const newest = await postOn(memorial.id, creator, 'newest');
    for (const p of [a, b]) await api('POST', `/api/memorial/candle/${loved.id}`, { token: p.token });
    await api('POST', `/api/memorial/candle/${quiet.id}`, { token: a.token });
    const order = async (sort: string) => (await api('GET', `/api/memorial/${memorial.id}?sort=${sort}`)).data.posts.map((p: { text: string }) => p.text);
    expect(await order('candles')).toEqual(['loved', 'quiet', 'newest']);
    expect(await order('newest')).toEqual(['newest', 'loved', 'quiet']);
    expect((await api('GET', `/api/memorial/${memorial.id}?sort=loudest`)).status).toBe(422);
    expect(newest.candle_count).toBe(0);
  });
});
