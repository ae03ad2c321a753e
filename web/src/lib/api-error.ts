/**
 * Reads the server's `detail` from a tRPC error: a string, or validation issues
 * (`{ loc, msg, type }[]`) whose messages are joined. Returns null when there is none,
 * so the caller can show its own SPEC fallback text.
 */
export function readErrorDetail(error: unknown): string | null {
  const data = (error as { data?: { detail?: unknown } } | null)?.data;
  const detail = data?.detail;
  if (typeof detail === 'string' && detail.trim()) return detail;
  if (Array.isArray(detail)) {
    const msgs = detail
      .map((issue) => (issue as { msg?: unknown })?.msg)
      .filter((msg): msg is string => typeof msg === 'string' && msg.length > 0);
    if (msgs.length) return msgs.join(' ');
  }
  return null;
}

/** The HTTP status a tRPC error was answered with, when the server sent one. */
export function readHttpStatus(error: unknown): number | null {
  const status = (error as { data?: { httpStatus?: unknown } } | null)?.data?.httpStatus;
  return typeof status === 'number' ? status : null;
}
