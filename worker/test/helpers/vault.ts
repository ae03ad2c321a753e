import { expect } from 'vitest';
import { toBase64 } from '../../src/lib/encoding';
import { api } from './api';
import { b64u, keyBundle, publicJwk } from './e2ee';

type Persona = { id: string; token: string };

/** A syntactically valid v1 envelope whose key is wrapped for each of `kids` (the server never opens it). */
export function envelopeFor(...kids: string[]) {
  return JSON.stringify({
    v: 1,
    alg: 'A256GCM',
    iv: b64u(12),
    ct: b64u(120),
    recipients: kids.map((kid) => ({ kid, alg: 'ECDH-ES+HKDF-SHA256+A256GCM', epk: publicJwk(), salt: b64u(16), iv: b64u(12), wrapped: b64u(48) })),
  });
}

/** Gives the persona a key bundle (a vault recipient needs one). */
export async function withKeys(person: Persona) {
  expect((await api('POST', '/api/trpc/keys.create', { token: person.token, json: keyBundle() })).status).toBe(200);
}

/** The multipart body of POST /api/vault/create; each field can be replaced or left out (undefined). */
export function vaultForm(fields: Record<string, string | Blob | undefined>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (value instanceof Blob) form.append(name, value, `${name}.bin`);
    else form.append(name, value);
  }
  return form;
}

/** Random "ciphertext" of `size` bytes. */
export const cipherBlob = (size = 256) => new Blob([crypto.getRandomValues(new Uint8Array(size))]);

/** Uploads a file sealed for the owner and `forIds`; returns the asset's answer. */
export async function uploadVaultFile(owner: Persona, forIds: string[], overrides: Record<string, string | Blob | undefined> = {}) {
  const res = await api('POST', '/api/vault/create', {
    token: owner.token,
    body: vaultForm({
      file: cipherBlob(),
      iv: toBase64(crypto.getRandomValues(new Uint8Array(12))),
      envelope: envelopeFor(owner.id, ...forIds),
      consent: 'true',
      name: 'letter.pdf',
      ...overrides,
    }),
  });
  if (res.status !== 201) throw new Error(`vault create failed: ${res.status} ${res.text}`);
  return res.data as { asset_id: string; size: number; name: string };
}

/** Uploads and gives a file to `recipient` (who must have keys) under `condition`; returns the item. */
export async function giveVaultItem(owner: Persona, recipient: Persona, condition: Record<string, unknown>) {
  const asset = await uploadVaultFile(owner, [recipient.id]);
  const res = await api('POST', '/api/vault/assign', { token: owner.token, json: { asset_id: asset.asset_id, recipient_user_id: recipient.id, ...condition } });
  if (res.status !== 201) throw new Error(`vault assign failed: ${res.status} ${res.text}`);
  return res.data as {
    id: string;
    asset_id: string;
    message_id: string;
    status: string;
    qr_code_url: string;
    claim_url: string;
    condition_value: string | null;
  };
}
