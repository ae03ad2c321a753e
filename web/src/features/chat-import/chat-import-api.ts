/*
 * The Import Chat page's call that tRPC does not carry: the multipart upload of the export. The server
 * recognises the format from the file itself.
 */
import type { TChatImport } from '@afterword/worker/contracts/chat-import';
import { restFetch } from '../../lib/rest';

/** POST /api/imports/chat-history (multipart: file, sender?). */
export async function uploadChatExport(file: File, sender: string): Promise<TChatImport> {
  const form = new FormData();
  form.append('file', file, file.name);
  if (sender.trim()) form.append('sender', sender.trim());
  const res = await restFetch('/api/imports/chat-history', { method: 'POST', body: form });
  return (await res.json()) as TChatImport;
}

/**
 * JSON only (docs/product.md "Voice, persona and chat import"): by the file's type, or its name when the
 * browser gives no type.
 */
export const isJsonFile = (file: File) => file.type === 'application/json' || (file.type === '' && /\.json$/i.test(file.name));
