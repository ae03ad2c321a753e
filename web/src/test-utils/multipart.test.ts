import { describe, expect, it } from 'vitest';
import { multipartBody } from '../features/e2ee/files-api';
import { parseMultipart } from './multipart';

describe('parseMultipart (the tests’ reading of an upload)', () => {
  it('gives back every field and the file byte for byte, whatever its first byte', async () => {
    for (const first of [0x0a, 0x0d, 0x2d, 0x00, 0xff]) {
      const bytes = crypto.getRandomValues(new Uint8Array(64));
      bytes[0] = first;
      const { body, contentType } = multipartBody({ name: 'Brief "für" dich.txt', consent: 'true' }, { field: 'file', filename: 'x.bin', bytes });
      const form = parseMultipart(body, contentType);
      expect(form.get('name')).toBe('Brief "für" dich.txt');
      expect(form.get('consent')).toBe('true');
      expect(new Uint8Array(await (form.get('file') as Blob).arrayBuffer())).toEqual(bytes);
    }
  });
});
