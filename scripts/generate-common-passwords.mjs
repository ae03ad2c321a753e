// Rebuilds worker/src/domains/auth/common-passwords.data.ts from @zxcvbn-ts/language-common.
// Usage: npm pack @zxcvbn-ts/language-common && tar xzf *.tgz && node scripts/generate-common-passwords.mjs package/src/passwords.json
import { readFileSync, writeFileSync } from 'node:fs';
const list = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const long = [...new Set(list.filter((x) => x.length >= 10 && x.length <= 256).map((x) => x.toLowerCase()))];
writeFileSync(
  new URL('../worker/src/domains/auth/common-passwords.data.ts', import.meta.url),
  '// Generated from @zxcvbn-ts/language-common 4.1.3 passwords.json (MIT, Dropbox and @zxcvbn-ts):\n' +
    '// the entries of 10 characters or more, lower-cased, since shorter ones already fail the length rule.\n' +
    '// Regenerate: scripts/generate-common-passwords.mjs.\n' +
    `export const COMMON_PASSWORDS: readonly string[] = ${JSON.stringify(long)};\n`,
);
console.log(`${long.length} passwords`);
