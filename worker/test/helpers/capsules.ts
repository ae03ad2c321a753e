import { api } from './api';

type Author = { token: string };

/** Writes a capsule over the API (released now unless `release_at` says otherwise) and returns it. */
export async function capsuleBy(author: Author, overrides: Record<string, unknown> = {}) {
  const res = await api('POST', '/api/capsule/create', {
    token: author.token,
    json: { title: 'To whoever finds this', theme: 'Hope', is_anonymous: false, content: [{ type: 'text', data: 'It gets better.' }], ...overrides },
  });
  if (res.status !== 201) throw new Error(`capsule create failed: ${res.status} ${res.text}`);
  return res.data as { id: string; title: string; status: string; released_at: string; user_email: string | null };
}

/** An ISO time `days` from now. */
export const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
