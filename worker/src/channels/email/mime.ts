import type { EmailAddress, OutgoingMessage } from '../types';
import { toBase64, toHex } from '../../lib/encoding';

/**
 * RFC 5322 / MIME message construction for the SMTP adapter (the HTTP API adapter sends JSON and lets
 * the provider build the message, but shares `composeText` and the address helpers).
 *
 * Everything here produces 7-bit ASCII lines of at most 78 characters, so the result can be sent to any
 * SMTP server without the 8BITMIME or SMTPUTF8 extensions: non-ASCII header text becomes RFC 2047
 * encoded words and the body is UTF-8 in quoted-printable.
 */

const encoder = new TextEncoder();

/** An address that can be put between angle brackets without escaping (no spaces, controls, <>, quotes). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the class names the control characters (U+0000–U+001F, U+007F) on purpose, to refuse them in an address
const ADDR_SPEC = /^[^\s<>()",;:\\[\]@\u0000-\u001f\u007f]+@[A-Za-z0-9.-]+$/;

export function isValidAddress(email: string): boolean {
  return email.length <= 254 && ADDR_SPEC.test(email);
}

/** Parses `Name <addr@host>` or a bare `addr@host` (the EMAIL_FROM format). */
export function parseAddress(value: string): EmailAddress | null {
  const trimmed = value.trim();
  const angle = /^(.*)<([^<>]+)>$/.exec(trimmed);
  const email = (angle ? angle[2]! : trimmed).trim();
  if (!isValidAddress(email)) return null;
  const rawName = angle ? angle[1]!.trim().replace(/^"(.*)"$/, '$1') : '';
  return rawName ? { email, name: rawName } : { email };
}

/** Removes what could break out of a header line (CR, LF and other controls). */
function oneLine(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point: CR/LF and the other controls must not reach a header line
  return s.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}

function isPrintableAscii(s: string): boolean {
  return /^[\u0020-\u007e]*$/.test(s);
}

/**
 * RFC 2047 encoded words (`=?UTF-8?B?…?=`), each at most 75 characters and never splitting a UTF-8
 * sequence, joined by folding whitespace (which decoders drop between adjacent encoded words).
 */
export function encodeWords(text: string): string {
  const words: string[] = [];
  // 75 - len("=?UTF-8?B?") - len("?=") = 63 base64 characters → at most 45 bytes per word.
  const maxBytes = 45;
  let chunk = '';
  let chunkBytes = 0;
  for (const ch of text) {
    const n = encoder.encode(ch).length;
    if (chunkBytes + n > maxBytes && chunk) {
      words.push(chunk);
      chunk = '';
      chunkBytes = 0;
    }
    chunk += ch;
    chunkBytes += n;
  }
  if (chunk || words.length === 0) words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${toBase64(encoder.encode(w))}?=`).join('\r\n ');
}

/** An unstructured header value (Subject): raw when short printable ASCII, encoded words otherwise. */
export function encodeUnstructured(text: string): string {
  const clean = oneLine(text);
  if (isPrintableAscii(clean) && clean.length <= 66 && !/=\?/.test(clean)) return clean;
  return encodeWords(clean);
}

/** `Name <addr>` for a header: the name quoted when ASCII, RFC 2047-encoded when not. */
export function formatAddressHeader(addr: EmailAddress): string {
  const name = addr.name ? oneLine(addr.name) : '';
  if (!name) return `<${addr.email}>`;
  if (isPrintableAscii(name) && !/=\?/.test(name)) {
    return `"${name.replace(/[\\"]/g, '\\$&')}" <${addr.email}>`;
  }
  return `${encodeWords(name)} <${addr.email}>`;
}

/** `Name <addr>` as plain text, for providers whose JSON API takes that form (Resend, Postmark). */
export function formatAddressText(addr: EmailAddress): string {
  const name = addr.name ? oneLine(addr.name).replace(/[<>"]/g, '') : '';
  return name ? `"${name}" <${addr.email}>` : addr.email;
}

/** The body every email carries: the message text and, when there is one, the inbox link. */
export function composeText(message: OutgoingMessage): string {
  const text = message.text.replace(/\r\n?/g, '\n').replace(/\s+$/, '');
  if (!message.link) return text;
  return `${text}\n\nRead it in your Afterword inbox:\n${message.link}`;
}

/**
 * Quoted-printable (RFC 2045 section 6.7) of the UTF-8 bytes: lines of at most 76 characters with soft
 * breaks, trailing spaces and tabs encoded, CRLF line endings.
 */
export function quotedPrintable(text: string): string {
  const out: string[] = [];
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const bytes = encoder.encode(line);
    let current = '';
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      const last = i === bytes.length - 1;
      const literal = (b >= 33 && b <= 126 && b !== 61) || ((b === 32 || b === 9) && !last);
      const token = literal ? String.fromCharCode(b) : `=${b.toString(16).toUpperCase().padStart(2, '0')}`;
      if (current.length + token.length > 75) {
        out.push(`${current}=`);
        current = '';
      }
      current += token;
    }
    out.push(current);
  }
  return out.join('\r\n');
}

/** RFC 5322 date-time in UTC: `Tue, 01 Jul 2025 10:00:00 +0000`. */
export function formatDate(date: Date): string {
  return date.toUTCString().replace(/GMT$/, '+0000');
}

/**
 * A Message-ID derived from the delivery's idempotency key, so every retry of one delivery carries the
 * same id and receiving systems can discard a duplicate; the key itself is hashed, not exposed.
 */
export async function messageIdFor(idempotencyKey: string, from: EmailAddress): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(idempotencyKey));
  const domain = from.email.split('@')[1] ?? 'afterword.invalid';
  return `<afterword.${toHex(new Uint8Array(digest)).slice(0, 32)}@${domain}>`;
}

export interface BuiltMessage {
  messageId: string;
  /** The full message, CRLF line endings, not yet dot-stuffed. */
  data: string;
}

/** The complete RFC 5322 message for one delivery: headers, a blank line, the quoted-printable body. */
export async function buildMessage(from: EmailAddress, to: EmailAddress, message: OutgoingMessage, date: Date): Promise<BuiltMessage> {
  const messageId = await messageIdFor(message.idempotencyKey, from);
  const headers = [
    `From: ${formatAddressHeader(from)}`,
    `To: ${formatAddressHeader(to)}`,
    `Subject: ${encodeUnstructured(message.subject)}`,
    `Date: ${formatDate(date)}`,
    `Message-ID: ${messageId}`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    // RFC 3834: sent by a program, so auto-responders stay quiet.
    'Auto-Submitted: auto-generated',
  ];
  return { messageId, data: `${headers.join('\r\n')}\r\n\r\n${quotedPrintable(composeText(message))}\r\n` };
}

/** SMTP transparency (RFC 5321 section 4.5.2): a line starting with '.' gets one more. */
export function dotStuff(data: string): string {
  return data.replace(/(^|\r\n)\./g, '$1..');
}
