import { esc, fileLink, table, when } from './html';
import { openerNote, type PageSource, peopleNames, rowsOf } from './page-source';

function condition(item: Record<string, unknown>): string {
  const v = item.condition_value;
  switch (item.condition_type) {
    case 'recipient_birthday':
      return `on their birthday (${esc(v)})${item.every_year ? ', every year' : ''}, after a death is confirmed`;
    case 'exact_date':
      return `on ${typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? when(Date.parse(v)) : esc(v)}`;
    case 'death_flag':
      return 'once a death is confirmed';
    default:
      return `${esc(item.condition_type)} ${esc(v)}`;
  }
}

/** vault.html: the files in the vault (sealed, linked to their .enc) and whom each is given to, and when. */
export async function* vaultPage(s: PageSource): AsyncGenerator<string> {
  const name = await peopleNames(s);
  const assets = new Map<string, string>();
  const files: string[][] = [];
  for await (const a of rowsOf(s, 'vault_files')) {
    assets.set(String(a.id), String(a.name));
    const path = s.paths.get(String(a.r2_key));
    files.push([esc(a.name), esc(a.size), when(a.created_at), path ? fileLink(path) : 'not in this archive', esc(a.legal_note ?? '')]);
  }
  yield `<h2>Files in your vault</h2>\n<p>Each is end-to-end encrypted (.enc): ${openerNote(s)}.</p>\n`;
  yield table(['Name', 'Bytes (sealed)', 'Added', 'In this archive', 'Note'], files, 'No files in the vault.');
  const items: string[][] = [];
  for await (const i of rowsOf(s, 'vault_items')) {
    items.push([esc(assets.get(String(i.asset_id)) ?? i.asset_id), esc(name(i.recipient_user_id)), condition(i), when(i.created_at), esc(i.legal_note ?? '')]);
  }
  yield '\n<h2>Who receives them</h2>\n';
  yield table(['File', 'For', 'When', 'Given', 'Note'], items, 'No vault file is given to anyone yet.');
}
