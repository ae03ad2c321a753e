import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { CHAT_IMPORT_ACCEPTED } from '../src/contracts/chat-import';
import { listChatMaterial } from '../src/domains/chat-import/material';
import { createServiceContext } from '../src/wiring/service-context';
import { consumeBatch } from '../src/queues/consume';
import { discordChannel, facebookChat, plainChat, telegramFull, telegramSingle } from './fixtures/chat-exports';
import { api, signedInUser } from './helpers/api';
import { captureQueues } from './helpers/messages';

/**
 * Chat-history import (docs/decisions/chat-import.md): the owner uploads a
 * messenger's JSON export, a queued job keeps their own lines with what each answered, and the persona's
 * material holds them. Anything that is not one of the formats is a 422 naming them; another person's
 * import is a 404; withdrawing the voice consent erases every import.
 */
type Person = Awaited<ReturnType<typeof signedInUser>>;

const jsonFile = (value: unknown) => new Blob([typeof value === 'string' ? value : JSON.stringify(value)], { type: 'application/json' });

/** Uploads the export and runs every job it queued through the real consumer, as the JOBS queue would. */
async function importThroughQueue(person: Person, value: unknown, fields: Record<string, string> = {}, name = 'result.json') {
  const form = new FormData();
  form.append('file', jsonFile(value), name);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const { result, jobs } = await captureQueues(() => api('POST', '/api/imports/chat-history', { token: person.token, body: form }));
  await runJobs(jobs.filter((j) => j.queue === 'JOBS').map((j) => j.body));
  return result;
}

async function runJobs(bodies: unknown[]) {
  if (bodies.length === 0) return;
  const batch = createMessageBatch(
    'afterword-jobs',
    bodies.map((body, i) => ({ id: `m${i}`, timestamp: new Date(), attempts: 1, body })),
  );
  await consumeBatch(batch, env);
  const result = await getQueueResult(batch, createExecutionContext());
  expect(result.retryMessages).toEqual([]);
}

const getImport = async (person: Person, id: string) => (await api('GET', `/api/imports/chat-history/${id}`, { token: person.token })).data;
/** The owner's lines as the persona reads them (most recent first), in the chat's order and without ids. */
const material = async (person: Person) =>
  (await listChatMaterial(createServiceContext(env), person.id, 1000)).reverse().map(({ text, prompt }) => ({ text, prompt }));
const waitingFiles = async (person: Person) => (await env.BLOBS.list({ prefix: `imports/${person.id}/` })).objects.length;

describe('importing a chat history (POST /api/imports/chat-history)', () => {
  it('answers 202 with the job id, queued, and the format it recognised', async () => {
    const owner = await signedInUser();
    const form = new FormData();
    form.append('file', jsonFile(plainChat), 'chat.json');
    const { result, jobs } = await captureQueues(() => api('POST', '/api/imports/chat-history', { token: owner.token, body: form }));
    expect(result.status).toBe(202);
    expect(result.data).toMatchObject({ status: 'queued', format: 'plain', file_name: 'chat.json', line_count: null });
    expect(jobs).toEqual([{ queue: 'JOBS', body: { type: 'chat_import', import_id: result.data.job_id }, delaySeconds: undefined }]);
    expect(await waitingFiles(owner)).toBe(1);
  });

  it('keeps a Telegram chat’s own lines with what each answered, reading text entities and skipping service and media-only messages', async () => {
    const owner = await signedInUser();
    const res = await importThroughQueue(owner, telegramSingle, { sender: 'Ada Lovelace' });
    const done = await getImport(owner, res.data.job_id);
    expect(done).toMatchObject({ status: 'complete', format: 'telegram', self_sender: 'Ada Lovelace', message_count: 5, line_count: 2, error: null });
    expect(done.senders).toEqual([
      { name: 'Ada Lovelace', count: 2 },
      { name: 'Margaret', count: 2 },
    ]);
    expect(await material(owner)).toEqual([
      { text: 'The tomatoes, always the tomatoes. See https://example.org/garden for the photos.', prompt: 'What do you remember about the garden?' },
      { text: 'Biscuit dug up every one of them.', prompt: 'And the dog?' },
    ]);
    expect(await waitingFiles(owner)).toBe(0);
  });

  it('knows the owner in Telegram’s full export by its personal information, across every chat', async () => {
    const owner = await signedInUser();
    const res = await importThroughQueue(owner, telegramFull);
    expect(res.data.self_sender).toBe('Ada Lovelace');
    expect(await getImport(owner, res.data.job_id)).toMatchObject({ status: 'complete', line_count: 3 });
    expect((await material(owner)).map((m) => m.text)).toContain('Thursday suits me.');
  });

  it('repairs Meta’s latin-1-escaped UTF-8 and puts its newest-first messages in order', async () => {
    const owner = await signedInUser();
    const res = await importThroughQueue(owner, facebookChat, { sender: 'Zoë Brontë' }, 'message_1.json');
    expect(await getImport(owner, res.data.job_id)).toMatchObject({ status: 'complete', format: 'facebook', line_count: 1 });
    expect(await material(owner)).toEqual([{ text: 'Crème brûlée, obviously. Always crème brûlée.', prompt: "What's your favourite dessert?" }]);
  });

  it('reads DiscordChatExporter’s JSON, by nickname, keeping replies and leaving joins and pins out', async () => {
    const owner = await signedInUser();
    const res = await importThroughQueue(owner, discordChannel, { sender: 'River' });
    expect(await getImport(owner, res.data.job_id)).toMatchObject({ status: 'complete', format: 'discord', message_count: 2, line_count: 1 });
    expect(await material(owner)).toEqual([{ text: 'Middlemarch. Everyone should read Middlemarch once.', prompt: 'Which book should we read next?' }]);
  });

  it('asks which sender is the owner when the export does not say, then keeps that sender’s lines', async () => {
    const owner = await signedInUser();
    const res = await importThroughQueue(owner, plainChat);
    const waiting = await getImport(owner, res.data.job_id);
    expect(waiting).toMatchObject({ status: 'needs_sender', self_sender: null, message_count: 3, line_count: null });
    expect(waiting.senders).toEqual([
      { name: 'Me', count: 2 },
      { name: 'Mum', count: 1 },
    ]);
    expect(await material(owner)).toEqual([]);
    expect(await waitingFiles(owner)).toBe(1);

    const missing = await api('POST', `/api/imports/chat-history/${res.data.job_id}/sender`, { token: owner.token, json: {} });
    expect(missing.status).toBe(422);
    expect(missing.data.detail[0].loc).toEqual(['body', 'sender']);
    const unknown = await api('POST', `/api/imports/chat-history/${res.data.job_id}/sender`, { token: owner.token, json: { sender: 'Dad' } });
    expect(unknown.status).toBe(422);
    expect(unknown.data.detail[0].msg).toBe('“Dad” did not write in this chat. Its senders: “Me”, “Mum”.');

    const { result, jobs } = await captureQueues(() =>
      api('POST', `/api/imports/chat-history/${res.data.job_id}/sender`, { token: owner.token, json: { sender: 'Me' } }),
    );
    expect(result.status).toBe(202);
    expect(result.data.status).toBe('queued');
    await runJobs(jobs.map((j) => j.body));
    expect(await getImport(owner, res.data.job_id)).toMatchObject({ status: 'complete', self_sender: 'Me', line_count: 2 });
    expect(await material(owner)).toEqual([
      { text: 'Buttermilk, and never stir more than ten times.', prompt: 'How do you make your pancakes so light?' },
      { text: 'And a pinch of nutmeg.', prompt: null },
    ]);
    const again = await api('POST', `/api/imports/chat-history/${res.data.job_id}/sender`, { token: owner.token, json: { sender: 'Mum' } });
    expect(again.status).toBe(409);
  });

  it('refuses what is not JSON, JSON of another shape, an empty chat and an unknown sender with 422, storing nothing', async () => {
    const owner = await signedInUser();
    const cases: [unknown, Record<string, string>, string][] = [
      ['sender,text\nMe,hello', {}, `The file is not JSON. Accepted: ${CHAT_IMPORT_ACCEPTED}.`],
      [{ hello: 'world' }, {}, `This file is not a chat export we can read. Accepted: ${CHAT_IMPORT_ACCEPTED}.`],
      [[{ from: 'Me', body: 'hi' }], {}, `This file is not a chat export we can read. Accepted: ${CHAT_IMPORT_ACCEPTED}.`],
      [[], {}, 'The export has no messages with text to import'],
      [plainChat, { sender: 'Nobody' }, '“Nobody” did not write in this chat. Its senders: “Me”, “Mum”.'],
    ];
    for (const [value, fields, msg] of cases) {
      const form = new FormData();
      form.append('file', jsonFile(value), 'x.json');
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      const { result, jobs } = await captureQueues(() => api('POST', '/api/imports/chat-history', { token: owner.token, body: form }));
      expect(result.status).toBe(422);
      expect(result.data.detail[0].msg).toBe(msg);
      expect(jobs).toEqual([]);
    }
    expect((await api('GET', '/api/imports/chat-history', { token: owner.token })).data).toEqual([]);
    expect(await waitingFiles(owner)).toBe(0);
  });

  it('refuses a file over 20 MiB with 413 and a missing file with 422', async () => {
    const owner = await signedInUser();
    const big = new FormData();
    big.append('file', new Blob([new Uint8Array(20 * 1024 * 1024 + 1)]), 'big.json');
    expect((await api('POST', '/api/imports/chat-history', { token: owner.token, body: big })).status).toBe(413);
    const none = await api('POST', '/api/imports/chat-history', { token: owner.token, body: new FormData() });
    expect(none.status).toBe(422);
    expect(none.data.detail[0].loc).toEqual(['body', 'file']);
  });

  it('is idempotent: a redelivered job neither adds lines nor changes a finished import', async () => {
    const owner = await signedInUser();
    const form = new FormData();
    form.append('file', jsonFile(plainChat), 'chat.json');
    form.append('sender', 'Me');
    const { result, jobs } = await captureQueues(() => api('POST', '/api/imports/chat-history', { token: owner.token, body: form }));
    const bodies = jobs.map((j) => j.body);
    // Cut short after the lines were written, before it completed: the import is still processing.
    await env.DB.prepare("UPDATE chat_imports SET status = 'processing' WHERE id = ?").bind(result.data.job_id).run();
    await env.DB.prepare("INSERT INTO persona_chat_lines (import_id, owner_id, position, text) VALUES (?, ?, 1, 'half-written')")
      .bind(result.data.job_id, owner.id)
      .run();
    await runJobs(bodies);
    await runJobs(bodies);
    expect(await getImport(owner, result.data.job_id)).toMatchObject({ status: 'complete', line_count: 2 });
    expect((await material(owner)).map((m) => m.text)).toEqual(['Buttermilk, and never stir more than ten times.', 'And a pinch of nutmeg.']);
  });

  it('ends failed with the reason when the waiting file is gone', async () => {
    const owner = await signedInUser();
    const form = new FormData();
    form.append('file', jsonFile(plainChat), 'chat.json');
    form.append('sender', 'Me');
    const { result, jobs } = await captureQueues(() => api('POST', '/api/imports/chat-history', { token: owner.token, body: form }));
    await env.BLOBS.delete(`imports/${owner.id}/${result.data.job_id}.json`);
    await runJobs(jobs.map((j) => j.body));
    expect(await getImport(owner, result.data.job_id)).toMatchObject({ status: 'failed', error: 'The uploaded file is no longer there; upload it again' });
  });
});

describe('who may see and remove an import', () => {
  it('lists the owner’s imports, and is 404 for another person’s, to read, answer or delete', async () => {
    const owner = await signedInUser();
    const outsider = await signedInUser();
    const first = await importThroughQueue(owner, plainChat, { sender: 'Me' });
    const second = await importThroughQueue(owner, plainChat);
    const list = (await api('GET', '/api/imports/chat-history', { token: owner.token })).data;
    expect(list.map((i: { job_id: string }) => i.job_id).sort()).toEqual([first.data.job_id, second.data.job_id].sort());
    expect((await api('GET', '/api/imports/chat-history', { token: outsider.token })).data).toEqual([]);
    const id = second.data.job_id;
    expect((await api('GET', `/api/imports/chat-history/${id}`, { token: outsider.token })).status).toBe(404);
    expect((await api('POST', `/api/imports/chat-history/${id}/sender`, { token: outsider.token, json: { sender: 'Me' } })).status).toBe(404);
    expect((await api('DELETE', `/api/imports/chat-history/${id}`, { token: outsider.token })).status).toBe(404);
    expect((await getImport(owner, id)).status).toBe('needs_sender');
  });

  it('deleting an import removes its lines and a file still waiting', async () => {
    const owner = await signedInUser();
    const kept = await importThroughQueue(owner, plainChat, { sender: 'Me' });
    const waiting = await importThroughQueue(owner, plainChat);
    expect(await waitingFiles(owner)).toBe(1);
    expect((await api('DELETE', `/api/imports/chat-history/${kept.data.job_id}`, { token: owner.token })).status).toBe(200);
    expect((await api('DELETE', `/api/imports/chat-history/${waiting.data.job_id}`, { token: owner.token })).status).toBe(200);
    expect(await material(owner)).toEqual([]);
    expect(await waitingFiles(owner)).toBe(0);
    expect((await api('GET', '/api/imports/chat-history', { token: owner.token })).data).toEqual([]);
  });

  it('is offered over tRPC too (chatImport.list, get, chooseSender, delete)', async () => {
    const owner = await signedInUser();
    const res = await importThroughQueue(owner, plainChat);
    const get = await api('GET', `/api/trpc/chatImport.get?input=${encodeURIComponent(JSON.stringify({ id: res.data.job_id }))}`, { token: owner.token });
    expect(get.status).toBe(200);
    expect(get.data.result.data).toMatchObject({ job_id: res.data.job_id, status: 'needs_sender' });
  });
});

describe('the voice consent', () => {
  it('withdrawn, refuses an import (403) and erases every import, its lines and waiting files', async () => {
    const owner = await signedInUser();
    await importThroughQueue(owner, plainChat, { sender: 'Me' });
    await importThroughQueue(owner, plainChat);
    const withdrawn = await api('POST', '/api/legal/consent/voice', { token: owner.token, json: { consent: false } });
    expect(withdrawn.status).toBe(200);
    expect((await api('GET', '/api/imports/chat-history', { token: owner.token })).data).toEqual([]);
    expect(await material(owner)).toEqual([]);
    expect(await waitingFiles(owner)).toBe(0);
    const form = new FormData();
    form.append('file', jsonFile(plainChat), 'chat.json');
    const refused = await api('POST', '/api/imports/chat-history', { token: owner.token, body: form });
    expect(refused.status).toBe(403);
    expect(refused.data.detail).toMatch(/^You withdrew your voice consent: no chat history is imported\./);
  });
});
