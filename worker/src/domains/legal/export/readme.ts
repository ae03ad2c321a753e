import { humanTime } from '../../../lib/human-time';

/** The opening of an archive's README and index: what it is, for whom (an export, or a copy left to an heir). */
export interface ArchiveTitle {
  title: string;
  lead: string;
}

export const exportTitle = (generatedAt: string): ArchiveTitle => ({
  title: 'Your Afterword export',
  lead: `Afterword export — everything we hold about your account, made ${humanTime(Date.parse(generatedAt))}.`,
});

/** README.txt of the archive: the pages to read first, what each part is, and how its encrypted files are sealed. */
export function readmeText(generatedAt: string, heading: ArchiveTitle = exportTitle(generatedAt), opener = true): string {
  return `${heading.lead}

Start here
index.html      Open it in any browser (double-click): your account as pages to read — messages with
                their recipients, rules and status; canaries and their check-ins; the vault; contacts and
                guardians; consents — and every file of the archive with its size and SHA-256. The pages
                work offline and load nothing from anywhere.
${
  opener
    ? `open-encrypted-files.html
                Opens your end-to-end encrypted messages and files in your browser, offline: choose this
                unzipped folder, type your recovery key (or your password), and read or save them.
`
    : ''
}
What else is here
data/*.json     One file per kind of record: every row that is yours (your account, canaries and their
                history, messages you wrote and those released to you, guardians and the ladder, vault
                items, notices, API keys and webhooks, …). Secrets are left out: your password's hash,
                session, API-key and reset-token hashes, webhook signing secrets and canary tokens. A notice
                we sent (to you, or to a guardian) keeps its subject and where it went; its body is kept
                only until a channel took it.
files/          Your recordings, attachments and vault files, and those released to you, byte for byte
                as stored. Files ending in .enc are end-to-end encrypted: we never had their keys.
manifest.json   Each file's size and SHA-256, to check the archive is whole.

Opening end-to-end encrypted files by hand (what open-encrypted-files.html does; formats: version 1,
every binary field base64url without padding; docs/security/e2ee.md of Afterword's source has every byte)
1. Your private key: data/encryption_keys.json holds it sealed twice. With your recovery key, derive an
   AES-256 key by HKDF-SHA-256 (the salt is recovery_wrap.kdf.salt, the info "afterword/e2ee/v1/recovery",
   the input the recovery key's 32 bytes: its 52 letters read as base32, without the dashes), then open
   recovery_wrap.ct with AES-GCM (IV recovery_wrap.iv, additional data "afterword/e2ee/v1/private-key"):
   the result is your P-256 private key (PKCS#8). With your password instead: PBKDF2-HMAC-SHA-256 over
   the password (NFKC-normalised, UTF-8) with password_wrap's salt and iterations, then the same AES-GCM step.
2. A message's key: its content_encrypted (data/messages_sent.json, messages_received.json) is an envelope
   whose recipients list has an entry whose kid is your user id. ECDH between your private key and its epk,
   HKDF-SHA-256 (salt the entry's salt, info "afterword/e2ee/v1/wrap"), then AES-GCM-open "wrapped" (IV the
   entry's iv, additional data your user id): that is the message's content key.
3. The envelope's ct, opened with that key (AES-GCM, IV the envelope's iv, additional data
   "afterword/e2ee/v1"), is JSON: the text, the recording's IV, and for each file its own key and IV.
4. A file: AES-GCM-open the .enc bytes with the file's key and IV (no additional data). Which file: an
   attachment's .enc is named after its row in data/attachments.json (its id, then its name) and the
   payload's entry has the same IV; a vault file's row in data/vault_files.json carries its own envelope.
   A recording of an encrypted message: the content key, the recording's IV, additional data
   "afterword/e2ee/v1/audio".
`;
}
