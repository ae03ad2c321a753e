import { api } from './api';

type Person = { token: string };

/** Makes a memorial over the API and returns it. */
export async function memorialBy(creator: Person, overrides: Record<string, unknown> = {}) {
  const res = await api('POST', '/api/memorial/create', {
    token: creator.token,
    json: { name: 'Ada Quill', epitaph: 'She taught us to read', tags: ['teachers'], cause: 'old age', ...overrides },
  });
  if (res.status !== 201) throw new Error(`memorial create failed: ${res.status} ${res.text}`);
  return res.data as { id: string; name: string };
}

/** Writes a post on a memorial over the API and returns it. */
export async function postOn(memorialId: string, author: Person, text = 'We miss you') {
  const res = await api('POST', `/api/memorial/${memorialId}/post`, { token: author.token, json: { text } });
  if (res.status !== 201) throw new Error(`post failed: ${res.status} ${res.text}`);
  return res.data as { id: string; candle_count: number };
}
