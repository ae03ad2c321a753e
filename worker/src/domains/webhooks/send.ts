/** How long one attempt may take, connection to the end of the (capped) body. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** At most this much of a response body is read, then it is discarded. */
export const WEBHOOK_RESPONSE_MAX_BYTES = 64 * 1024;

export interface SendResult {
  /** The HTTP status, or null when there was no answer. */
  statusCode: number | null;
  durationMs: number;
  /** Why it failed; null on a 2xx. */
  error: string | null;
  /** A 5xx, 429, timeout or connection error: worth another attempt. */
  retryable: boolean;
  /** The endpoint's Retry-After (seconds), when it sent one with a retryable status. */
  retryAfterSeconds: number | null;
}

/**
 * One POST of a signed webhook. Redirects are not followed (`redirect: 'manual'`: a 3xx is a failure, so
 * an allowed URL cannot lead to an internal one); the body is read up to 64 KiB and discarded; the whole
 * exchange is bounded by an AbortSignal timeout.
 */
export async function postWebhook(url: string, headers: Record<string, string>, body: string, now: Date, timeoutMs = WEBHOOK_TIMEOUT_MS): Promise<SendResult> {
  const started = performance.now();
  const signal = AbortSignal.timeout(timeoutMs);
  const elapsed = () => Math.max(0, Math.round(performance.now() - started));
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers: { 'user-agent': 'Afterword-Webhooks/1', ...headers }, body, redirect: 'manual', signal });
  } catch (err) {
    const timedOut = signal.aborted;
    return {
      statusCode: null,
      durationMs: elapsed(),
      error: timedOut ? `timed out after ${timeoutMs} ms` : `connection failed: ${describe(err)}`,
      retryable: true,
      retryAfterSeconds: null,
    };
  }
  let readError: string | null = null;
  try {
    await drainCapped(res);
  } catch (err) {
    readError = signal.aborted ? `timed out after ${timeoutMs} ms reading the response` : `response body failed: ${describe(err)}`;
  }
  const status = res.status;
  const durationMs = elapsed();
  if (status >= 200 && status < 300) return { statusCode: status, durationMs, error: null, retryable: false, retryAfterSeconds: null };
  const retryable = status >= 500 || status === 429;
  const error =
    status >= 300 && status < 400
      ? `redirect (${status}${res.headers.get('location') ? ` to ${res.headers.get('location')!.slice(0, 200)}` : ''}) not followed`
      : `HTTP ${status}${readError ? `; ${readError}` : ''}`;
  return { statusCode: status, durationMs, error, retryable, retryAfterSeconds: retryable ? parseRetryAfter(res.headers.get('retry-after'), now) : null };
}

async function drainCapped(res: Response) {
  if (!res.body) return;
  const reader = res.body.getReader();
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    size += value.byteLength;
    if (size >= WEBHOOK_RESPONSE_MAX_BYTES) {
      await reader.cancel();
      return;
    }
  }
}

/** `Retry-After: <seconds>` or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: Date): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v);
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, Math.ceil((at - now.getTime()) / 1000)) : null;
}

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 200);
