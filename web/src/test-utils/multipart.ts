/**
 * A multipart/form-data body read back as the server reads it, byte for byte. happy-dom's own parser (the test
 * environment's `Response.formData()`) drops a file part whose bytes begin with a newline — one random ciphertext in
 * 256 — which workerd's parser keeps (checked there); so tests that upload random bytes read the body here.
 */
export function parseMultipart(body: Uint8Array, contentType: string): FormData {
  const boundary = /boundary=(.+)$/.exec(contentType)?.[1];
  if (!boundary) throw new Error(`no boundary in ${contentType}`);
  const text = new TextDecoder('latin1');
  const delimiter = new TextEncoder().encode(`\r\n--${boundary}`);
  // The body starts with "--boundary"; with a CRLF before it, every part is between two delimiters.
  const bytes = new Uint8Array([13, 10, ...body]);
  const form = new FormData();
  let at = indexOf(bytes, delimiter, 0);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (bytes[start] === 45 && bytes[start + 1] === 45) break; // "--": the closing delimiter
    const next = indexOf(bytes, delimiter, start);
    const part = bytes.subarray(start + 2, next); // after the CRLF that ends the delimiter line
    const split = indexOf(part, new Uint8Array([13, 10, 13, 10]), 0);
    const headers = text.decode(part.subarray(0, split));
    const content = part.subarray(split + 4);
    const name = /name="([^"]*)"/.exec(headers)![1]!;
    const filename = /filename="([^"]*)"/.exec(headers)?.[1];
    if (filename === undefined) form.append(name, new TextDecoder().decode(content));
    else form.append(name, new Blob([content.slice()]), filename);
    at = next;
  }
  return form;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  outer: for (let i = from; i <= haystack.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
