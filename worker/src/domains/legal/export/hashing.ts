import { toHex } from '../../../lib/encoding';

/** What the manifest says of one file of the archive. */
export interface ManifestEntry {
  name: string;
  size: number;
  sha256: string;
}

const encoder = new TextEncoder();

/**
 * Passes a stream through unchanged while counting and hashing it (workerd's DigestStream: no copy of
 * the file is kept), and records the entry once the last byte has gone by.
 */
export async function* hashedChunks(
  name: string,
  // An R2 body (a ReadableStream) is an async iterable in workerd.
  source: Iterable<Uint8Array | string> | AsyncIterable<Uint8Array | string>,
  entries: ManifestEntry[],
): AsyncGenerator<Uint8Array> {
  const digest = new crypto.DigestStream('SHA-256');
  const writer = digest.getWriter();
  let size = 0;
  for await (const chunk of source) {
    const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
    size += bytes.byteLength;
    await writer.write(bytes);
    yield bytes;
  }
  await writer.close();
  entries.push({ name, size, sha256: toHex(new Uint8Array(await digest.digest)) });
}
