/** The opening of an archive's README and index: what it is, for whom (an export, or a copy left to an heir). */
export interface ArchiveTitle {
  title: string;
  lead: string;
}

export const exportTitle = (generatedAt: string): ArchiveTitle => ({
  title: 'Your Afterword export',
  lead: `Afterword export — everything we hold about your account, made ${generatedAt}.`,
});

/** README.txt of the archive: what each part is, and how to open end-to-end encrypted files. */
export function readmeText(generatedAt: string, heading: ArchiveTitle = exportTitle(generatedAt)): string {
  return `${heading.lead}

data/*.json     One file per kind of record: every row that is yours (your account, canaries and their
                history, messages you wrote and those released to you, guardians and the ladder, vault
                items, notices, API keys and webhooks, …). Secrets are left out: your password's hash,
                session, API-key and reset-token hashes, webhook signing secrets and canary tokens.
files/          Your recordings, attachments and vault files, and those released to you, byte for byte
                as stored. Files ending in .enc are end-to-end encrypted: we never had their keys.
manifest.json   Each file's size and SHA-256, to check the archive is whole.
index.html      The same, to read in a browser.

Opening end-to-end encrypted files (formats: version 1, every binary field base64url without padding)
1. Your private key: data/encryption_keys.json holds it sealed twice. With your recovery key, derive an
   AES-256 key by HKDF-SHA-256 (the salt is recovery_wrap.kdf.salt, the info "afterword/e2ee/v1/recovery",
   the input the recovery key's 32 bytes: its 52 letters read as base32, without the dashes), then open
   recovery_wrap.ct with AES-GCM (IV recovery_wrap.iv, additional data "afterword/e2ee/v1/private-key"):
   the result is your P-256 private key (PKCS#8). With your password instead: PBKDF2-HMAC-SHA-256 over
   password_wrap (its salt and iterations), then the same AES-GCM step.
2. A message's key: its content_encrypted (data/messages_sent.json, messages_received.json) is an envelope
   whose recipients list has an entry whose kid is your user id. ECDH between your private key and its epk,
   HKDF-SHA-256 (salt the entry's salt, info "afterword/e2ee/v1/wrap"), then AES-GCM-open "wrapped" (IV the
   entry's iv, additional data your user id): that is the message's content key.
3. The envelope's ct, opened with that key (AES-GCM, IV the envelope's iv, additional data
   "afterword/e2ee/v1"), is JSON: the text, the recording's IV, and for each file its own key and IV.
4. A file: AES-GCM-open the .enc bytes with the file's key and IV (no additional data). A recording of an
   encrypted message: the content key, the recording's IV, additional data "afterword/e2ee/v1/audio".
`;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** index.html: the archive's files with their sizes and hashes, readable in any browser, offline. */
export function indexHtml(
  generatedAt: string,
  entries: { name: string; size: number; sha256: string }[],
  heading: ArchiveTitle = exportTitle(generatedAt),
): string {
  const rows = entries
    .map((e) => `<tr><td><a href="${esc(e.name)}">${esc(e.name)}</a></td><td>${e.size}</td><td><code>${e.sha256}</code></td></tr>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${esc(heading.title)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:2rem;max-width:70rem}td,th{padding:.25rem .75rem;text-align:left;border-bottom:1px solid #ddd}code{font-size:12px}</style></head>
<body>
<h1>${esc(heading.title)}</h1>
<p>${esc(heading.lead)} Records are in <code>data/</code>, files in <code>files/</code> (end-to-end encrypted ones end in <code>.enc</code>: <a href="README.txt">README.txt</a> says how to open them with the recovery key).</p>
<table><thead><tr><th>File</th><th>Bytes</th><th>SHA-256</th></tr></thead><tbody>
${rows}
</tbody></table>
</body>
</html>
`;
}
