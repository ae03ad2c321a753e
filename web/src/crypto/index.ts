/*
 * The browser's end-to-end encryption (docs/server-rules.md "End-to-end encryption", docs/security/e2ee.md).
 * WebCrypto only; no network, no storage, no React: callers fetch and store, this module only seals and opens.
 */
export { FormatError, MalformedRecoveryKeyError, NotARecipientError, TamperedError, WrongKeyError, E2eeError, type E2eeErrorCode } from './errors';
export { base64ToBytes, base64urlToBytes, bytesToBase64, bytesToBase64url, bytesToHex, randomBytes, utf8Decode, utf8Encode, type Bytes } from './encoding';
export { AES_GCM_IV_BYTES, AES_KEY_BYTES, aesGcmDecrypt, aesGcmEncrypt, exportAesKey, generateAesKey, importAesKey, type AesGcmSealed } from './aes-gcm';
export { exportPrivatePkcs8, exportPublicJwk, generateKeyPair, importPrivatePkcs8, importPublicJwk, publicKeyFingerprint, publicKeyThumbprint } from './keys';
export { derivePasswordWrapKey, deriveRecoveryWrapKey } from './kdf';
export { parseWrappedPrivateKey, rewrapPrivateKey, unwrapPrivateKey, unwrapPrivateKeyPkcs8, wrapPrivateKey, type UnlockSecret } from './private-key-wrap';
export { formatRecoveryKey, generateRecoveryKey, normalizeRecoveryKey, parseRecoveryKey, recoveryKeyFileText, RECOVERY_KEY_BYTES } from './recovery-key';
export { createKeyBundle, createRecoveryKey, type NewKeyBundle, type NewRecoveryKey } from './key-bundle';
export { generateContentKey, openAudio, openEnvelope, openMessage, readEnvelope, sealAudio, sealMessage, type Reader, type SealMessageInput } from './envelope';
export { attachmentPayloadEntry, decryptFile, encryptFile, type EncryptedFile } from './attachment';
