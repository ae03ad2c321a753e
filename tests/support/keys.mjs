// Accounts with end-to-end encryption keys, made as their browser would make them but with Node's independent
// implementation of the formats (tests/support/e2ee-node.mjs).
import assert from 'node:assert/strict';
import * as node from './e2ee-node.mjs';
import { api, PASSWORD } from './http.mjs';
import { accountWithToken } from './session.mjs';

/**
 * A registered, signed-in account with a key bundle (password wrap at a test's lower PBKDF2 count, recovery wrap),
 * and, with `savedRecoveryKey`, the recovery key marked saved (an unsaved one is replaced at the next unlock).
 */
export async function accountWithKeys({ savedRecoveryKey = false } = {}) {
  const account = await accountWithToken();
  const pair = await node.generateKeyPair();
  const recovery = await node.generateRecoveryKey();
  const bundle = {
    public_key: pair.publicJwk,
    password_wrap: await node.wrapPrivateKey(pair.privateKey, { password: PASSWORD }, { iterations: 100_000 }),
    recovery_wrap: await node.wrapPrivateKey(pair.privateKey, { recoveryKey: recovery.text }),
  };
  const put = await api('PUT', '/api/keys/me', { token: account.token, body: bundle });
  assert.equal(put.status, 201, put.text);
  if (savedRecoveryKey) {
    const saved = await api('POST', '/api/keys/me/recovery/saved', { token: account.token, body: { recovery_ct: bundle.recovery_wrap.ct } });
    assert.equal(saved.status, 200, saved.text);
  }
  return { ...account, id: account.user.id, privateKey: pair.privateKey, publicJwk: pair.publicJwk, recoveryKey: recovery.text };
}
