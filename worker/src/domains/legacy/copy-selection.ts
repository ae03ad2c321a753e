import type { TLegacyPart } from '../../contracts/legacy';
import { humanTime } from '../../lib/human-time';
import type { ArchiveSelection } from '../legal/export/export-archive';
import { EXPORTS, type TableExport } from '../legal/export/export-plan';

const plan = (file: string): TableExport => {
  const found = EXPORTS.find((p) => p.file === file);
  if (!found) throw new Error(`no export plan for ${file}`);
  return found;
};

/**
 * What each part of a copy left to an heir takes: only what the owner made — never what others sent
 * them (those letters belong to their senders' relationships), never secrets (the export plan's
 * omissions hold here too).
 */
const PART_PLANS: Record<TLegacyPart, readonly TableExport[]> = {
  account: [plan('account'), plan('notification_preferences')],
  messages: [
    plan('messages_sent'),
    plan('message_history'),
    { ...plan('attachments'), where: 'owner_id = ?1 AND message_id IN (SELECT id FROM messages WHERE sender_id = ?1)' },
  ],
  vault: [plan('vault_files'), plan('vault_items')],
  history: [plan('canaries'), plan('canary_history'), plan('activity')],
};

const PART_FILES: Partial<Record<TLegacyPart, readonly string[]>> = {
  messages: ['files/messages_sent/', 'files/attachments/'],
  vault: ['files/vault/'],
};

/** The archive selection of a copy of `parts`, headed as a copy from `from`. */
export function copySelection(parts: readonly TLegacyPart[], from: string): ArchiveSelection {
  const prefixes = parts.flatMap((p) => PART_FILES[p] ?? []);
  return {
    plans: parts.flatMap((p) => PART_PLANS[p]),
    keepFile: (f) => prefixes.some((prefix) => f.path.startsWith(prefix)),
    heading: (generatedAt) => ({
      title: `What ${from} left you`,
      lead: `A copy of parts of ${from}'s Afterword account (${parts.join(', ')}), left to you before the account was closed, made ${humanTime(Date.parse(generatedAt))}. Files ending in .enc were encrypted with ${from}'s keys: they open only with ${from}'s recovery key, if it was left to you.`,
    }),
  };
}
