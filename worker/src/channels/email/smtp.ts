import { connect } from 'cloudflare:sockets';
import { utf8ToBase64 } from '../../lib/encoding';
import type { DeliveryResult, EmailAddress } from '../types';
import { buildMessage, dotStuff, isValidAddress, parseAddress } from './mime';
import type { EmailSender } from './types';

/**
 * Email over SMTP (RFC 5321) on `cloudflare:sockets`: one connection per delivery, EHLO, STARTTLS when
 * configured (or implicit TLS), AUTH PLAIN or LOGIN when credentials are set, MAIL FROM, RCPT TO, DATA
 * with dot-stuffing, QUIT. The message is built by `./mime` (7-bit: RFC 2047 headers, quoted-printable).
 *
 * Outcomes: a 4xx reply, a refused / dropped connection or the timeout → retryable; a 5xx reply (unknown
 * mailbox, rejected sender, bad credentials) or a configuration mismatch (STARTTLS or AUTH not offered)
 * → not retryable. Errors never contain the password or the encoded credentials.
 */

export type SmtpSecurity = 'none' | 'starttls' | 'tls';

export interface SmtpConfig {
  host: string;
  port: number;
  secure: SmtpSecurity;
  user?: string;
  password?: string;
  from: EmailAddress;
  /** Whole transaction, connect to QUIT. Default 15 s. */
  timeoutMs?: number;
  /** Name sent with EHLO; defaults to the From address's domain. */
  heloName?: string;
  now?: () => Date;
}

export const DEFAULT_SMTP_TIMEOUT_MS = 15_000;

export interface SmtpEnv {
  SMTP_HOST?: string;
  SMTP_PORT?: string;
  SMTP_USER?: string;
  SMTP_PASSWORD?: string;
  SMTP_SECURE?: string;
  EMAIL_FROM?: string;
}

/** Reads SMTP_* and EMAIL_FROM; returns a short error naming what is missing or malformed. */
export function smtpConfigFromEnv(env: SmtpEnv): SmtpConfig | { error: string } {
  if (!env.SMTP_HOST) return { error: 'email misconfigured: SMTP_HOST is not set' };
  const secure = (env.SMTP_SECURE ?? 'starttls').toLowerCase();
  if (secure !== 'none' && secure !== 'starttls' && secure !== 'tls') {
    return { error: 'email misconfigured: SMTP_SECURE must be none, starttls or tls' };
  }
  const defaultPort = secure === 'tls' ? 465 : secure === 'starttls' ? 587 : 25;
  const port = env.SMTP_PORT ? Number(env.SMTP_PORT) : defaultPort;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    return { error: 'email misconfigured: SMTP_PORT is not a port number' };
  }
  const from = env.EMAIL_FROM ? parseAddress(env.EMAIL_FROM) : null;
  if (!from) return { error: 'email misconfigured: EMAIL_FROM is not set or not an address' };
  if (env.SMTP_PASSWORD && !env.SMTP_USER) return { error: 'email misconfigured: SMTP_PASSWORD without SMTP_USER' };
  return {
    host: env.SMTP_HOST,
    port,
    secure,
    user: env.SMTP_USER || undefined,
    password: env.SMTP_PASSWORD || undefined,
    from,
  };
}

/** A reply the server gave that ends the transaction. */
class SmtpReplyError extends Error {
  constructor(
    readonly stage: string,
    readonly code: number,
    readonly text: string,
  ) {
    super(`SMTP ${stage} refused: ${code} ${text}`);
  }
}

/** A mismatch between what is configured and what the server offers: retrying will not help. */
class SmtpConfigError extends Error {}

class SmtpTimeoutError extends Error {}

class SmtpConnectionClosed extends Error {
  constructor(stage: string) {
    super(`SMTP connection closed by the server during ${stage}`);
  }
}

interface Reply {
  code: number;
  lines: string[];
}

type SocketLike = ReturnType<typeof connect>;

/** Line-oriented reading and writing over one socket (replaced after STARTTLS). */
class Conn {
  private reader: ReadableStreamDefaultReader<Uint8Array>;
  private writer: WritableStreamDefaultWriter<Uint8Array>;
  private buffer = '';
  private decoder = new TextDecoder();
  private encoder = new TextEncoder();
  stage = 'connect';

  constructor(readonly socket: SocketLike) {
    this.reader = socket.readable.getReader();
    this.writer = socket.writable.getWriter();
  }

  private async readLine(): Promise<string> {
    for (;;) {
      const end = this.buffer.indexOf('\r\n');
      if (end >= 0) {
        const line = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        return line;
      }
      if (this.buffer.length > 64 * 1024) throw new Error('SMTP reply line too long');
      const { value, done } = await this.reader.read();
      if (done) throw new SmtpConnectionClosed(this.stage);
      this.buffer += this.decoder.decode(value, { stream: true });
    }
  }

  /** One reply, possibly multi-line (`250-…` continued, `250 …` last). */
  async reply(): Promise<Reply> {
    const lines: string[] = [];
    for (;;) {
      const line = await this.readLine();
      const m = /^(\d{3})([ -]?)(.*)$/.exec(line);
      if (!m) throw new Error(`SMTP ${this.stage}: malformed reply`);
      lines.push(m[3]!);
      if (m[2] !== '-') return { code: Number(m[1]), lines };
    }
  }

  async write(text: string): Promise<void> {
    await this.writer.write(this.encoder.encode(text));
  }

  /** Sends a command and expects one of `ok` reply codes; any other reply ends the transaction. */
  async command(stage: string, line: string, ok: number[]): Promise<Reply> {
    this.stage = stage;
    await this.write(`${line}\r\n`);
    return this.expect(stage, ok);
  }

  async expect(stage: string, ok: number[]): Promise<Reply> {
    this.stage = stage;
    const r = await this.reply();
    if (!ok.includes(r.code)) throw new SmtpReplyError(stage, r.code, r.lines.join(' '));
    return r;
  }

  /** Hands the socket over for STARTTLS: no reads are pending between commands. */
  release(): void {
    this.reader.releaseLock();
    this.writer.releaseLock();
  }
}

function ehloExtensions(r: Reply): Map<string, string> {
  const ext = new Map<string, string>();
  for (const line of r.lines.slice(1)) {
    const [key, ...rest] = line.trim().split(/\s+/);
    if (key) ext.set(key.toUpperCase(), rest.join(' ').toUpperCase());
  }
  return ext;
}

/** Removes every form in which a credential could appear in a message, and caps its length. */
function redact(message: string, config: SmtpConfig): string {
  let out = message;
  const secrets: string[] = [];
  if (config.password) {
    secrets.push(config.password, utf8ToBase64(config.password));
    secrets.push(utf8ToBase64(`\u0000${config.user ?? ''}\u0000${config.password}`));
  }
  for (const s of secrets) if (s) out = out.split(s).join('[redacted]');
  return out.replace(/[\r\n]+/g, ' ').slice(0, 300);
}

export function createSmtpSender(config: SmtpConfig): EmailSender {
  const timeoutMs = config.timeoutMs ?? DEFAULT_SMTP_TIMEOUT_MS;
  const now = config.now ?? (() => new Date());

  return async (to, message) => {
    if (!isValidAddress(to.email)) return { ok: false, retryable: false, error: 'invalid recipient address' };
    const built = await buildMessage(config.from, to, message, now());

    let conn: Conn | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new SmtpTimeoutError()), timeoutMs);
    });

    const run = async (): Promise<void> => {
      const socket = connect(
        { hostname: config.host, port: config.port },
        {
          secureTransport: config.secure === 'tls' ? 'on' : config.secure === 'starttls' ? 'starttls' : 'off',
          allowHalfOpen: false,
        },
      );
      // A refused or reset connection also rejects `closed`; the failure is reported through the reads.
      socket.closed.catch(() => undefined);
      conn = new Conn(socket);
      await socket.opened;
      await conn.expect('greeting', [220]);
      const helo = config.heloName ?? config.from.email.split('@')[1] ?? 'localhost';
      let ext = ehloExtensions(await conn.command('EHLO', `EHLO ${helo}`, [250]));

      if (config.secure === 'starttls') {
        if (!ext.has('STARTTLS')) throw new SmtpConfigError('SMTP server does not offer STARTTLS (SMTP_SECURE=starttls)');
        await conn.command('STARTTLS', 'STARTTLS', [220]);
        conn.release();
        const tls = socket.startTls({ expectedServerHostname: config.host });
        tls.closed.catch(() => undefined);
        conn = new Conn(tls);
        ext = ehloExtensions(await conn.command('EHLO', `EHLO ${helo}`, [250]));
      }

      if (config.user) {
        const mechanisms = (ext.get('AUTH') ?? '').split(/\s+/);
        if (mechanisms.includes('PLAIN')) {
          const token = utf8ToBase64(`\u0000${config.user}\u0000${config.password ?? ''}`);
          await conn.command('AUTH', `AUTH PLAIN ${token}`, [235]);
        } else if (mechanisms.includes('LOGIN')) {
          await conn.command('AUTH', 'AUTH LOGIN', [334]);
          await conn.command('AUTH', utf8ToBase64(config.user), [334]);
          await conn.command('AUTH', utf8ToBase64(config.password ?? ''), [235]);
        } else {
          throw new SmtpConfigError('SMTP server offers neither AUTH PLAIN nor AUTH LOGIN');
        }
      }

      await conn.command('MAIL FROM', `MAIL FROM:<${config.from.email}>`, [250]);
      await conn.command('RCPT TO', `RCPT TO:<${to.email}>`, [250, 251]);
      await conn.command('DATA', 'DATA', [354]);
      conn.stage = 'message';
      await conn.write(`${dotStuff(built.data)}.\r\n`);
      await conn.expect('message', [250]);
      // The message is accepted: a failing QUIT no longer matters.
      await conn.command('QUIT', 'QUIT', [221]).catch(() => undefined);
    };

    const attempt = run();
    attempt.catch(() => undefined); // settles after the socket is closed when the timeout wins
    try {
      await Promise.race([attempt, timeout]);
      return { ok: true, providerId: built.messageId };
    } catch (err) {
      return toResult(err, conn?.stage ?? 'connect', timeoutMs, config);
    } finally {
      clearTimeout(timer);
      if (conn) await conn.socket.close().catch(() => undefined);
    }
  };
}

function toResult(err: unknown, stage: string, timeoutMs: number, config: SmtpConfig): DeliveryResult {
  if (err instanceof SmtpReplyError) {
    const error = redact(err.message, config);
    if (err.code >= 400 && err.code < 500) return { ok: false, retryable: true, error, status: err.code };
    return { ok: false, retryable: false, error, status: err.code };
  }
  if (err instanceof SmtpConfigError) return { ok: false, retryable: false, error: err.message };
  if (err instanceof SmtpTimeoutError) {
    return { ok: false, retryable: true, error: `SMTP timed out after ${timeoutMs / 1000}s during ${stage}` };
  }
  if (err instanceof SmtpConnectionClosed) return { ok: false, retryable: true, error: err.message };
  const detail = err instanceof Error ? err.message : String(err);
  return { ok: false, retryable: true, error: redact(`SMTP connection failed during ${stage}: ${detail}`, config) };
}
