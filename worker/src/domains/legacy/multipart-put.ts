/** R2 wants every part but the last the same size, at least 5 MiB. */
const PART_BYTES = 8 * 1024 * 1024;

/**
 * Writes a stream of unknown length to R2 as a multipart upload, one fixed-size part at a time, so
 * memory holds at most one part whatever the size (R2's put needs a known length for a stream). An
 * error aborts the upload: no half object is left. Returns the bytes written.
 */
export async function putStream(bucket: R2Bucket, key: string, stream: ReadableStream<Uint8Array>, options: R2MultipartOptions = {}): Promise<number> {
  const upload = await bucket.createMultipartUpload(key, options);
  const parts: R2UploadedPart[] = [];
  let buffer = new Uint8Array(PART_BYTES);
  let filled = 0;
  let total = 0;
  try {
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
      let offset = 0;
      while (offset < chunk.length) {
        const n = Math.min(chunk.length - offset, PART_BYTES - filled);
        buffer.set(chunk.subarray(offset, offset + n), filled);
        filled += n;
        offset += n;
        if (filled === PART_BYTES) {
          parts.push(await upload.uploadPart(parts.length + 1, buffer));
          buffer = new Uint8Array(PART_BYTES);
          filled = 0;
        }
      }
      total += chunk.length;
    }
    if (filled > 0 || parts.length === 0) parts.push(await upload.uploadPart(parts.length + 1, buffer.subarray(0, filled)));
    await upload.complete(parts);
    return total;
  } catch (err) {
    await upload.abort().catch(() => undefined);
    throw err;
  }
}
