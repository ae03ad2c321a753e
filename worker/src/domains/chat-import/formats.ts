import { z } from 'zod';
import { CHAT_IMPORT_ACCEPTED, type CHAT_IMPORT_FORMATS } from '../../contracts/chat-import';
import { AppError } from '../../lib/errors';

/**
 * The messenger exports a chat import reads (docs/server-rules.md "Voice, persona and chat import"), each to
 * the shape its exporter documents, reduced to one list of `{sender, text, sent_at}` in the chat's order.
 * Schemas are loose (`z.looseObject`): exporters add fields over the years, and only the ones read here must hold.
 */
export type ChatFormat = (typeof CHAT_IMPORT_FORMATS)[number];
export interface ChatLine {
  sender: string;
  text: string;
  /** ms since the epoch, null when the export has no readable time. */
  sent_at: number | null;
}
export interface ChatExport {
  format: ChatFormat;
  lines: ChatLine[];
  /** The exporting account's own name, when the export says it (Telegram's full export does). */
  selfHint: string | null;
}

const time = (value: unknown): number | null => {
  if (typeof value === 'number' && Number.isFinite(value)) return value < 1e11 ? value * 1000 : value;
  if (typeof value === 'string' && value.trim()) {
    const n = Number(value);
    if (Number.isFinite(n)) return time(n);
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
};

// --- Telegram Desktop: Settings → Export chat history → JSON (result.json) ---------------------------
/** `text` is a string, or a list of strings and entities ({type, text}) for links, bold, mentions… */
const ZTelegramText = z.union([z.string(), z.array(z.union([z.string(), z.looseObject({ text: z.string() })]))]);
const ZTelegramMessage = z.looseObject({
  type: z.string(),
  date: z.string().optional(),
  date_unixtime: z.string().optional(),
  from: z.string().nullable().optional(),
  text: ZTelegramText.optional(),
});
const ZTelegramChat = z.looseObject({ messages: z.array(ZTelegramMessage) });
/** One chat ("Export chat history" in a chat's menu)… */
const ZTelegramSingle = ZTelegramChat.extend({ type: z.string(), id: z.union([z.number(), z.string()]) });
/** …or the whole account (Settings → Advanced → Export Telegram data), with the exporter's own name. */
const ZTelegramFull = z.looseObject({
  personal_information: z.looseObject({ first_name: z.string().optional(), last_name: z.string().optional() }).optional(),
  chats: z.looseObject({ list: z.array(ZTelegramChat) }),
});

const telegramText = (text: z.infer<typeof ZTelegramText> | undefined) =>
  typeof text === 'string' ? text : (text ?? []).map((part) => (typeof part === 'string' ? part : part.text)).join('');

function telegramLines(chats: z.infer<typeof ZTelegramChat>[]): ChatLine[] {
  return chats.flatMap((chat) =>
    chat.messages
      .filter((m) => m.type === 'message' && m.from)
      .map((m) => ({ sender: m.from!, text: telegramText(m.text), sent_at: time(m.date_unixtime) ?? time(m.date) })),
  );
}

// --- Facebook Messenger and Instagram: "Download your information" → JSON (message_1.json) --------
const ZFacebook = z.looseObject({
  participants: z.array(z.looseObject({ name: z.string() })),
  messages: z.array(z.looseObject({ sender_name: z.string(), timestamp_ms: z.number(), content: z.string().optional() })),
});

/**
 * Meta's exports write UTF-8 bytes as one \u00XX escape each, so "é" arrives as "Ã©". A string whose
 * every code unit fits a byte and whose bytes are valid UTF-8 is decoded again; anything else (a
 * later export that fixed it, plain ASCII) is kept as it is.
 */
export function repairMetaText(text: string): string {
  const units = Array.from(text, (c) => c.codePointAt(0)!);
  if (!units.some((u) => u >= 0x80) || units.some((u) => u > 0xff)) return text;
  const bytes = Uint8Array.from(units);
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return text;
  }
}

// --- DiscordChatExporter (Tyrrrz): --format Json -------------------------------------------------------
const ZDiscord = z.looseObject({
  guild: z.looseObject({}),
  channel: z.looseObject({}),
  messages: z.array(
    z.looseObject({
      timestamp: z.string(),
      content: z.string(),
      type: z.string().optional(),
      author: z.looseObject({ name: z.string(), nickname: z.string().optional() }),
    }),
  ),
});
/** Discord's message types that carry what a person wrote (others are joins, pins, calls…). */
const DISCORD_SAID = new Set(['Default', 'Reply']);

// --- Plain: [{sender, text, timestamp}] ----------------------------------------------------------------
const ZPlain = z.array(z.looseObject({ sender: z.string(), text: z.string(), timestamp: z.union([z.string(), z.number()]).nullish() }));

/**
 * Recognises the export and reads its lines, in the chat's order. 422 naming the accepted formats for
 * anything else, including JSON that is none of them.
 */
export function readChatExport(json: unknown): ChatExport {
  const single = ZTelegramSingle.safeParse(json);
  if (single.success) return { format: 'telegram', lines: telegramLines([single.data]), selfHint: null };
  const full = ZTelegramFull.safeParse(json);
  if (full.success) {
    const me = full.data.personal_information;
    const name = [me?.first_name, me?.last_name].filter(Boolean).join(' ').trim();
    return { format: 'telegram', lines: telegramLines(full.data.chats.list), selfHint: name || null };
  }
  const meta = ZFacebook.safeParse(json);
  if (meta.success) {
    // Newest first in the export: put back in the chat's order.
    const lines = [...meta.data.messages]
      .sort((a, b) => a.timestamp_ms - b.timestamp_ms)
      .map((m) => ({ sender: repairMetaText(m.sender_name), text: repairMetaText(m.content ?? ''), sent_at: m.timestamp_ms }));
    return { format: 'facebook', lines, selfHint: null };
  }
  const discord = ZDiscord.safeParse(json);
  if (discord.success) {
    const lines = discord.data.messages
      .filter((m) => m.type === undefined || DISCORD_SAID.has(m.type))
      .map((m) => ({ sender: m.author.nickname || m.author.name, text: m.content, sent_at: time(m.timestamp) }));
    return { format: 'discord', lines, selfHint: null };
  }
  const plain = ZPlain.safeParse(json);
  if (plain.success) {
    return { format: 'plain', lines: plain.data.map((m) => ({ sender: m.sender, text: m.text, sent_at: time(m.timestamp) })), selfHint: null };
  }
  throw notAChatExport();
}

export const notAChatExport = () =>
  new AppError('UNPROCESSABLE', [
    { loc: ['body', 'file'], msg: `This file is not a chat export we can read. Accepted: ${CHAT_IMPORT_ACCEPTED}.`, type: 'chat_format' },
  ]);

/**
 * Parses the uploaded bytes as JSON: 422 when they are not (docs/product.md "Voice, persona and chat import":
 * JSON files only).
 */
export function parseJsonFile(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new AppError('UNPROCESSABLE', [{ loc: ['body', 'file'], msg: `The file is not JSON. Accepted: ${CHAT_IMPORT_ACCEPTED}.`, type: 'json_invalid' }]);
  }
}
