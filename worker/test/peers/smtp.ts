import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerAuthentication, type SMTPServerSession } from 'smtp-server';
import type { TestProject } from 'vitest/node';

/**
 * A real SMTP server (npm `smtp-server`) on 127.0.0.1 for the email channel's SMTP adapter, plus a tiny
 * HTTP control endpoint on a second port through which tests read what arrived, parsed by `mailparser`.
 *
 * - AUTH PLAIN and LOGIN are offered without TLS (a second server on `loginOnlyPort` offers only LOGIN); auth is optional, but a wrong user or password is
 *   refused with 535, and each received message records the user that authenticated (or null).
 * - Recipient conventions (the local part decides how RCPT TO is answered):
 *     `reject-550@…`  → 550 mailbox unavailable (permanent)
 *     `tempfail-451@…` → 451 try again later (temporary)
 *     `hang@…`         → never answered (the adapter's timeout must fire)
 *     `drop@…`         → the connection is closed without a reply
 *   anything else is accepted.
 * - `GET {control}/messages?to=addr` returns the parsed messages delivered to `addr` (all when omitted),
 *   with the SMTP envelope, the authenticated user and the raw source.
 * - `refusedPort` is a port on 127.0.0.1 that nothing listens on (connection refused).
 */
export interface SmtpPeerInfo {
  host: string;
  port: number;
  /** The same server behaviour, offering only AUTH LOGIN. */
  loginOnlyPort: number;
  control: string;
  user: string;
  password: string;
  refusedPort: number;
}

declare module 'vitest' {
  interface ProvidedContext {
    smtpPeer: SmtpPeerInfo;
  }
}

export interface ReceivedMessage {
  envelope: { mailFrom: string | null; rcptTo: string[] };
  authUser: string | null;
  /** PLAIN or LOGIN when the client authenticated. */
  authMethod: string | null;
  /** The EHLO/HELO name the client introduced itself with. */
  clientHostname: string;
  /** The message source exactly as it arrived after DATA (dot-unstuffed). */
  raw: string;
  from: { address?: string; name: string }[];
  to: { address?: string; name: string }[];
  subject: string | null;
  /** The Subject header exactly as it was written on the wire (to check RFC 2047 encoding). */
  rawSubject: string | null;
  text: string | null;
  messageId: string | null;
  date: string | null;
  headers: Record<string, string>;
}

const USER = 'afterword-test';
const PASSWORD = 'smtp-s3cret-never-in-errors';

export async function startSmtpPeer(project: TestProject) {
  const received: ReceivedMessage[] = [];
  const hanging = new Set<() => void>();
  const authMethodBySession = new Map<string, string>();

  const makeServer = (authMethods: string[]) => {
    const server: SMTPServer = new SMTPServer({
      name: 'peer.smtp.test',
      banner: 'Afterword test SMTP peer',
      authMethods,
      authOptional: true,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      socketTimeout: 30_000,
      onAuth(auth: SMTPServerAuthentication, session, callback) {
        if (auth.username === USER && auth.password === PASSWORD) {
          authMethodBySession.set(session.id, auth.method);
          return callback(null, { user: USER });
        }
        const err = Object.assign(new Error('Invalid username or password'), { responseCode: 535 });
        return callback(err);
      },
      onRcptTo(address, session, callback) {
        const local = address.address.split('@')[0]!.toLowerCase();
        if (local === 'reject-550') {
          return callback(Object.assign(new Error('Mailbox unavailable: no such user'), { responseCode: 550 }));
        }
        if (local === 'tempfail-451') {
          return callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
        }
        if (local === 'hang') {
          // Answer only when the server shuts down, long after the adapter's timeout.
          hanging.add(() => callback(new Error('shutting down')));
          return;
        }
        if (local === 'drop') {
          for (const conn of (server as unknown as { connections: Set<ConnectionLike> }).connections) {
            if (conn.id === session.id) conn._socket.destroy();
          }
          return;
        }
        return callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const source = Buffer.concat(chunks);
          simpleParser(source)
            .then((mail) => {
              received.push({
                ...toReceived(mail, session, source.toString('latin1')),
                authMethod: authMethodBySession.get(session.id) ?? null,
              });
              callback(null, 'OK: queued');
            })
            .catch((err: Error) => callback(err));
        });
      },
    });
    return server;
  };

  const server = makeServer(['PLAIN', 'LOGIN']);
  const loginOnly = makeServer(['LOGIN']);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => loginOnly.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  const loginOnlyPort = (loginOnly.server.address() as AddressInfo).port;

  const control: HttpServer = createHttpServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname === '/messages') {
      const to = url.searchParams.get('to')?.toLowerCase();
      const list = to ? received.filter((m) => m.envelope.rcptTo.includes(to)) : received;
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(list));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  const controlPort = (control.address() as AddressInfo).port;

  // A port that was free a moment ago and is closed again: connecting to it is refused.
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const refusedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));

  project.provide('smtpPeer', {
    host: '127.0.0.1',
    port,
    loginOnlyPort,
    control: `http://127.0.0.1:${controlPort}`,
    user: USER,
    password: PASSWORD,
    refusedPort,
  });

  return async () => {
    for (const release of hanging) release();
    await new Promise<void>((resolve) => control.close(() => resolve()));
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await new Promise<void>((resolve) => loginOnly.close(() => resolve()));
  };
}

interface ConnectionLike {
  id: string;
  _socket: { destroy(): void };
}

type Parsed = Awaited<ReturnType<typeof simpleParser>>;

function addresses(field: Parsed['from'] | Parsed['to']): { address?: string; name: string }[] {
  if (!field) return [];
  const list = Array.isArray(field) ? field : [field];
  return list.flatMap((a) => a.value.map((v) => ({ address: v.address, name: v.name })));
}

function toReceived(mail: Parsed, session: SMTPServerSession, source: string): Omit<ReceivedMessage, 'authMethod'> {
  const headerBlock = source.split('\r\n\r\n')[0] ?? '';
  const subjectMatch = /^Subject:(.*(?:\r\n[ \t].*)*)/im.exec(headerBlock);
  const headers: Record<string, string> = {};
  for (const line of mail.headerLines) headers[line.key] = line.line;
  return {
    envelope: {
      mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
      rcptTo: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
    },
    authUser: typeof session.user === 'string' ? session.user : null,
    clientHostname: session.hostNameAppearsAs,
    raw: source,
    from: addresses(mail.from),
    to: addresses(mail.to),
    subject: mail.subject ?? null,
    rawSubject: subjectMatch ? subjectMatch[1]!.trim() : null,
    text: mail.text ?? null,
    messageId: mail.messageId ?? null,
    date: mail.date ? mail.date.toISOString() : null,
    headers,
  };
}
