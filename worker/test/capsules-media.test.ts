import { env } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { api, signedInUser } from './helpers/api';
import { capsuleBy, daysFromNow } from './helpers/capsules';
import { fixture } from './helpers/voice';

/**
 * Audio and video items of a confession capsule (docs/decisions/community.md "Audio
 * and video items"): the author adds files before the release, type-checked from their bytes and counted
 * in their storage; whoever may read the capsule may play them — nobody else, and never the author's
 * name through them.
 */
type Person = Awaited<ReturnType<typeof signedInUser>>;

const CAPTIONS = 'WEBVTT\n\n00:00.000 --> 00:02.000\nHello from the past\n';
/** The start of an MP4 (ISO BMFF): an `ftyp` box, then whatever follows. */
const mp4 = () =>
  new Uint8Array([
    0,
    0,
    0,
    0x18,
    ...new TextEncoder().encode('ftypisom'),
    0,
    0,
    2,
    0,
    ...new TextEncoder().encode('isomiso2'),
    0,
    0,
    0,
    8,
    0x6d,
    0x64,
    0x61,
    0x74,
  ]);
/** A WebM header whose Tracks hold a video track (TrackType 1). */
const webmVideo = () =>
  new Uint8Array([
    0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x16, 0x54, 0xae, 0x6b, 0x8a, 0xae, 0x88, 0xd7, 0x81, 0x01, 0x83, 0x81, 0x01, 0x86, 0x85,
  ]);

async function addMedia(person: Person, capsuleId: string, bytes: Uint8Array, type: string, captions?: string) {
  const form = new FormData();
  form.append('file', new Blob([bytes]), 'take');
  form.append('type', type);
  if (captions !== undefined) form.append('captions', captions);
  return api('POST', `/api/capsule/${capsuleId}/media`, { token: person.token, body: form });
}

const storageUsed = async (person: Person) => (await api('GET', '/api/profile/storage', { token: person.token })).data.used_bytes as number;
const releaseNow = (id: string) =>
  env.DB.prepare('UPDATE capsules SET release_at = ?2 WHERE id = ?1')
    .bind(id, Date.now() - 1000)
    .run();
const fetchAs = (path: string, token?: string) => api('GET', path, { token });

describe('adding audio and video to a capsule before its release', () => {
  it('adds audio and video after the text, with the type read from the bytes, captions where given, counted in storage', async () => {
    const author = await signedInUser();
    const capsule = await capsuleBy(author, { release_at: daysFromNow(3) });
    const before = await storageUsed(author);
    const audio = fixture('speech.live.webm');
    const withAudio = await addMedia(author, capsule.id, audio, 'audio', CAPTIONS);
    expect(withAudio.status).toBe(201);
    const withVideo = await addMedia(author, capsule.id, mp4(), 'video');
    expect(withVideo.status).toBe(201);
    const [text, sound, film] = withVideo.data.content;
    expect(text).toEqual({ type: 'text', data: 'It gets better.' });
    expect(sound).toMatchObject({ type: 'audio', data: expect.stringMatching(/^\/api\/capsule\/media\/[0-9a-f-]{36}$/), captions: `${sound.data}/captions` });
    expect(film).toMatchObject({ type: 'video', captions: null });
    expect(await storageUsed(author)).toBe(before + audio.byteLength + mp4().byteLength);

    const played = await fetchAs(sound.data, author.token);
    expect(played.status).toBe(200);
    expect(played.headers.get('content-type')).toBe('audio/webm');
    expect((await fetchAs(film.data, author.token)).headers.get('content-type')).toBe('video/mp4');
    const captions = await fetchAs(sound.captions, author.token);
    expect(captions.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    expect(captions.text).toBe(CAPTIONS);
    // An edit of the text keeps the files where they are.
    const edited = await api('PATCH', `/api/capsule/${capsule.id}`, { token: author.token, json: { content: [{ type: 'text', data: 'Still true.' }] } });
    expect(edited.data.content.map((i: { type: string }) => i.type)).toEqual(['text', 'audio', 'video']);
    expect(edited.data.content[1].data).toBe(sound.data);
  });

  it('recognises WebM video by its video track, and refuses bytes that are not the type named with 415', async () => {
    const author = await signedInUser();
    const capsule = await capsuleBy(author, { release_at: daysFromNow(3) });
    expect((await addMedia(author, capsule.id, webmVideo(), 'video')).status).toBe(201);
    const cases: [Uint8Array, string, string][] = [
      [webmVideo(), 'audio', 'Audio items can be WebM, Ogg (Opus or Vorbis) or WAV audio'],
      [fixture('speech.wav'), 'video', 'Video items can be WebM or MP4 video'],
      [new TextEncoder().encode('<script>alert(1)</script>'), 'audio', 'Audio items can be WebM, Ogg (Opus or Vorbis) or WAV audio'],
    ];
    for (const [bytes, type, detail] of cases) {
      const res = await addMedia(author, capsule.id, bytes, type);
      expect(res.status).toBe(415);
      expect(res.data.detail).toBe(detail);
    }
    expect((await api('GET', '/api/capsule/mine', { token: author.token })).data.find((c: { id: string }) => c.id === capsule.id).content).toHaveLength(2);
  });

  it('refuses a bad type, captions that are not WebVTT and a missing file with 422, and over 50 MiB with 413', async () => {
    const author = await signedInUser();
    const capsule = await capsuleBy(author, { release_at: daysFromNow(3) });
    const badType = await addMedia(author, capsule.id, mp4(), 'image');
    expect(badType.status).toBe(422);
    expect(badType.data.detail[0]).toMatchObject({ loc: ['body', 'type'], msg: 'type must be audio or video' });
    const badCaptions = await addMedia(author, capsule.id, mp4(), 'video', '1\n00:00:00,000 --> 00:00:01,000\nSRT, not WebVTT');
    expect(badCaptions.data.detail[0]).toMatchObject({ loc: ['body', 'captions'], msg: 'captions must be WebVTT: the text starts with WEBVTT' });
    const form = new FormData();
    form.append('type', 'audio');
    expect((await api('POST', `/api/capsule/${capsule.id}/media`, { token: author.token, body: form })).status).toBe(422);
    const big = await addMedia(author, capsule.id, new Uint8Array(50 * 1024 * 1024 + 1), 'video');
    expect(big.status).toBe(413);
    expect((await env.BLOBS.list({ prefix: `capsules/${capsule.id}/` })).objects).toEqual([]);
  });

  it('is refused once released (409), past the plan’s storage (403), and without the video consent for a video (403)', async () => {
    const author = await signedInUser();
    const open = await capsuleBy(author);
    expect((await addMedia(author, open.id, mp4(), 'video')).status).toBe(409);

    const capsule = await capsuleBy(author, { release_at: daysFromNow(3) });
    await api('POST', '/api/legal/consent/video', { token: author.token, json: { consent: false } });
    const noVideo = await addMedia(author, capsule.id, mp4(), 'video');
    expect(noVideo.status).toBe(403);
    expect(noVideo.data.detail).toMatch(/^You withdrew your video consent: no video can be added\./);
    expect((await addMedia(author, capsule.id, fixture('speech.wav'), 'audio')).status).toBe(201);

    await env.DB.prepare(
      "INSERT INTO voice_samples (id, owner_id, r2_key, label, content_type, codec, size, duration_ms, consent_at, created_at) VALUES (?, ?, 'voice/none', 'big', 'audio/wav', 'pcm_s16', 999990000, 1000, 0, 0)",
    )
      .bind(crypto.randomUUID(), author.id)
      .run();
    const full = await addMedia(author, capsule.id, fixture('speech.wav'), 'audio');
    expect(full.status).toBe(403);
    expect(full.data.detail).toMatch(/^Storage quota exceeded: the Free plan includes/);
    expect((await env.BLOBS.list({ prefix: `capsules/${capsule.id}/` })).objects).toHaveLength(1);
  });

  it('removes an item and its file before the release; another person’s capsule or item is 404', async () => {
    const author = await signedInUser();
    const outsider = await signedInUser();
    const capsule = await capsuleBy(author, { release_at: daysFromNow(3) });
    const added = await addMedia(author, capsule.id, fixture('speech.wav'), 'audio');
    const itemId = added.data.content[1].data.split('/').pop();
    expect((await addMedia(outsider, capsule.id, fixture('speech.wav'), 'audio')).status).toBe(404);
    expect((await api('DELETE', `/api/capsule/${capsule.id}/media/${itemId}`, { token: outsider.token })).status).toBe(404);
    expect((await fetchAs(added.data.content[1].data, outsider.token)).status).toBe(404);
    const removed = await api('DELETE', `/api/capsule/${capsule.id}/media/${itemId}`, { token: author.token });
    expect(removed.status).toBe(200);
    expect(removed.data.content).toHaveLength(1);
    expect((await env.BLOBS.list({ prefix: `capsules/${capsule.id}/` })).objects).toEqual([]);
  });
});

describe('playing a capsule’s audio and video', () => {
  it('is 404 for everyone but the author before the release, open to anyone after, and gone with the capsule', async () => {
    const author = await signedInUser();
    const reader = await signedInUser();
    const capsule = await capsuleBy(author, { release_at: daysFromNow(3), is_anonymous: true });
    const added = await addMedia(author, capsule.id, fixture('speech.wav'), 'audio', CAPTIONS);
    const { data: path, captions } = added.data.content[1];
    expect((await fetchAs(path)).status).toBe(404);
    expect((await fetchAs(captions, reader.token)).status).toBe(404);

    await releaseNow(capsule.id);
    const visitor = await fetchAs(path);
    expect(visitor.status).toBe(200);
    expect(visitor.headers.get('content-type')).toBe('audio/wav');
    expect(visitor.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await fetchAs(captions)).text).toBe(CAPTIONS);
    // Nothing about the file names its anonymous author.
    const view = await fetchAs(`/api/capsule/view/${capsule.id}`);
    expect(JSON.stringify(view.data)).not.toContain(author.id);
    expect(JSON.stringify(view.data)).not.toContain(author.email);
    for (const [name, value] of visitor.headers.entries()) expect(`${name}: ${value}`).not.toContain(author.id);

    expect((await api('DELETE', `/api/capsule/${capsule.id}`, { token: author.token })).status).toBe(200);
    expect((await fetchAs(path)).status).toBe(404);
    expect((await env.BLOBS.list({ prefix: `capsules/${capsule.id}/` })).objects).toEqual([]);
  });

  it('answers a byte range with 206 so players can seek, a range past the end with 416, and several ranges with the whole file', async () => {
    const author = await signedInUser();
    const capsule = await capsuleBy(author, { release_at: daysFromNow(3) });
    const wav = fixture('speech.wav');
    const { data: path } = (await addMedia(author, capsule.id, wav, 'audio')).data.content[1];
    await releaseNow(capsule.id);
    const ranged = async (range: string) => {
      const res = await exports.default.fetch(new Request(`http://afterword.test${path}`, { headers: { range } }));
      return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
    };

    const middle = await ranged('bytes=100-199');
    expect(middle.status).toBe(206);
    expect(middle.headers.get('content-range')).toBe(`bytes 100-199/${wav.byteLength}`);
    expect(middle.headers.get('content-length')).toBe('100');
    expect(middle.headers.get('content-type')).toBe('audio/wav');
    expect(middle.bytes).toEqual(wav.subarray(100, 200));

    const tail = await ranged('bytes=-10');
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe(`bytes ${wav.byteLength - 10}-${wav.byteLength - 1}/${wav.byteLength}`);
    expect(tail.bytes).toEqual(wav.subarray(wav.byteLength - 10));

    const open = await ranged(`bytes=${wav.byteLength - 5}-`);
    expect(open.bytes).toEqual(wav.subarray(wav.byteLength - 5));

    const past = await ranged(`bytes=${wav.byteLength}-`);
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${wav.byteLength}`);
    expect(past.bytes.byteLength).toBe(0);

    for (const whole of [await ranged('bytes=0-9, 50-59'), await ranged('lines=1-2')]) {
      expect(whole.status).toBe(200);
      expect(whole.headers.get('accept-ranges')).toBe('bytes');
      expect(whole.bytes).toEqual(wav);
    }
    // A range does not open what is not readable.
    await env.DB.prepare('UPDATE capsules SET hidden_at = ?2 WHERE id = ?1').bind(capsule.id, Date.now()).run();
    expect((await ranged('bytes=0-9')).status).toBe(404);
  });

  it('is hidden with its capsule when reports hide it', async () => {
    const author = await signedInUser();
    const capsule = await capsuleBy(author, { release_at: daysFromNow(3) });
    const { data: path } = (await addMedia(author, capsule.id, fixture('speech.wav'), 'audio')).data.content[1];
    await releaseNow(capsule.id);
    expect((await fetchAs(path)).status).toBe(200);
    await env.DB.prepare('UPDATE capsules SET hidden_at = ?2 WHERE id = ?1').bind(capsule.id, Date.now()).run();
    expect((await fetchAs(path)).status).toBe(404);
    expect((await fetchAs(path, author.token)).status).toBe(200);
  });
});
