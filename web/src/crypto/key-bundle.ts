/*
 * An account's first key bundle (PUT /api/keys/me, ZKeyBundle): a new key pair, its public JWK, the
 * private key wrapped under the password and under a new recovery key. The recovery key's text is
 * returned to be shown once and offered as a .txt; it is never sent anywhere.
 */
import { ZKeyBundle, type TKeyBundle, type TWrappedPrivateKey } from '@afterword/worker/contracts/e2ee';
import { exportPrivatePkcs8, exportPublicJwk, generateKeyPair, importPrivatePkcs8 } from './keys';
import { unwrapPrivateKeyPkcs8, wrapPrivateKey } from './private-key-wrap';
import { generateRecoveryKey } from './recovery-key';

export interface NewKeyBundle {
  /** What the server stores. */
  bundle: TKeyBundle;
  /** Show once, offer as a download (recoveryKeyFileText), then forget. */
  recoveryKey: string;
  /** The private key for this session, already non-extractable. */
  privateKey: CryptoKey;
}

export async function createKeyBundle(password: string, options: { iterations?: number } = {}): Promise<NewKeyBundle> {
  const pair = await generateKeyPair();
  const pkcs8 = await exportPrivatePkcs8(pair.privateKey);
  const recovery = await generateRecoveryKey();
  const bundle = ZKeyBundle.parse({
    public_key: await exportPublicJwk(pair.publicKey),
    password_wrap: await wrapPrivateKey(pkcs8, { password }, options),
    recovery_wrap: await wrapPrivateKey(pkcs8, { recoveryKey: recovery.bytes }),
  });
  // Drop the extractable handle: from here on only a non-extractable copy exists in memory.
  const privateKey = await importPrivatePkcs8(pkcs8);
  pkcs8.fill(0);
  recovery.bytes.fill(0);
  return { bundle, recoveryKey: recovery.text, privateKey };
}

export interface NewRecoveryKey {
  /** Show once, offer as a download, then forget. */
  recoveryKey: string;
  /** What the server stores in place of the old recovery wrap (PUT /api/keys/me/recovery). */
  recoveryWrap: TWrappedPrivateKey;
}

/**
 * A new recovery key for an existing key pair: the private key is opened with the password (WrongKeyError
 * when it does not open) and sealed under the new key. The key pair stays, so every message stays
 * readable; once the server stores the new wrap, the old recovery key opens nothing.
 */
export async function createRecoveryKey(passwordWrap: unknown, password: string): Promise<NewRecoveryKey> {
  const pkcs8 = await unwrapPrivateKeyPkcs8(passwordWrap, { password });
  const recovery = await generateRecoveryKey();
  try {
    return { recoveryKey: recovery.text, recoveryWrap: await wrapPrivateKey(pkcs8, { recoveryKey: recovery.bytes }) };
  } finally {
    pkcs8.fill(0);
    recovery.bytes.fill(0);
  }
}
