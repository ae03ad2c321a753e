/**
 * Structured JSON logs. Never pass secrets here: tokens, passwords and keys are not logged, and
 * query strings are logged without their values (a `?key=` download must not leak its key).
 */
type Fields = Record<string, unknown>;

function emit(level: 'info' | 'warn' | 'error', msg: string, fields: Fields) {
  const line = JSON.stringify({ level, msg, time: new Date().toISOString(), ...fields });
  if (level === 'error') console.error(line);
  else if (level === 'warn') console.warn(line);
  else console.log(line);
}

export const log = {
  info: (msg: string, fields: Fields = {}) => emit('info', msg, fields),
  warn: (msg: string, fields: Fields = {}) => emit('warn', msg, fields),
  error: (msg: string, fields: Fields = {}) => emit('error', msg, fields),
};

/**
 * `/api/x?key=abc&b=1` → `/api/x?key=…&b=…`: paths are useful in logs, query values may be secrets
 * (the decrypted-file download's `?key=`, a reset `?token=`). Every value goes, not a list of known
 * names, and the fragment too; a URL that does not parse is not logged at all.
 */
export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '[unparseable url]';
  }
  // A name that is not a plain identifier may itself be the secret (`?<key>` without `key=`).
  const names = [...new Set(u.searchParams.keys())].map((k) => (/^[A-Za-z_][A-Za-z0-9_.-]{0,31}$/.test(k) ? k : '…'));
  return u.pathname + (names.length ? `?${names.map((k) => `${k}=…`).join('&')}` : '');
}
