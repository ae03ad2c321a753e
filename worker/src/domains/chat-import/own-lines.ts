import { CHAT_IMPORT_MAX_LINES, CHAT_LINE_MAX_CHARS, CHAT_PROMPT_MAX_CHARS } from '../../contracts/chat-import';
import type { ChatLine } from './formats';

export interface OwnLine {
  position: number;
  text: string;
  /** The other person's line just before: what this one answered, if anything did. */
  prompt: string | null;
  sent_at: number | null;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Who wrote in the chat, busiest first, with how many lines (with text) each. */
export function countSenders(lines: ChatLine[]): { name: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const line of lines) if (line.text.trim()) counts.set(line.sender, (counts.get(line.sender) ?? 0) + 1);
  return [...counts].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}

/**
 * The owner's own lines with text, each paired with the last line someone else wrote since the owner's
 * previous line (what it answered; null when the owner wrote twice in a row or first). Only the
 * latest CHAT_IMPORT_MAX_LINES are kept: persona material, not an archive of the chat.
 */
export function ownLines(lines: ChatLine[], self: string): OwnLine[] {
  const kept: OwnLine[] = [];
  let prompt: string | null = null;
  lines.forEach((line, position) => {
    const text = line.text.trim();
    if (!text) return;
    if (line.sender !== self) {
      prompt = clip(text, CHAT_PROMPT_MAX_CHARS);
      return;
    }
    kept.push({ position, text: clip(text, CHAT_LINE_MAX_CHARS), prompt, sent_at: line.sent_at });
    prompt = null;
  });
  return kept.slice(-CHAT_IMPORT_MAX_LINES);
}
