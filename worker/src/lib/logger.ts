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

/** `/api/x?key=abc&b=1` → `/api/x?key=…&b=…`: paths are useful in logs, query values may be secrets. */
export function redactUrl(url: string): string {
  const u = new URL(url);
  const keys = [...u.searchParams.keys()];
  return u.pathname + (keys.length ? '?' + keys.map((k) => `${k}=…`).join('&') : '');
}
