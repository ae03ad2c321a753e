import type { PageLink } from './html';
import { canariesPage } from './page-canaries';
import { messagesPage } from './page-messages';
import { peoplePage } from './page-people';
import type { PageSource } from './page-source';
import { vaultPage } from './page-vault';

/** One page of the archive a person reads, shown when the archive holds any of the records it `needs`. */
interface ReadablePage extends PageLink {
  needs: readonly string[];
  body: (s: PageSource) => AsyncGenerator<string>;
}

const PAGES: readonly ReadablePage[] = [
  { file: 'messages.html', title: 'Messages', needs: ['messages_sent', 'messages_received'], body: messagesPage },
  { file: 'canaries.html', title: 'Canaries and check-ins', needs: ['canaries', 'canary_history', 'activity'], body: canariesPage },
  { file: 'vault.html', title: 'Vault', needs: ['vault_files', 'vault_items'], body: vaultPage },
  { file: 'people.html', title: 'Contacts and guardians', needs: ['contacts', 'guardians', 'guardianships'], body: peoplePage },
];

export const INDEX_PAGE: PageLink = { file: 'index.html', title: 'Overview' };
export const OPENER_PAGE: PageLink = { file: 'open-encrypted-files.html', title: 'Open encrypted files' };

/** The readable pages an archive of these records has (a copy left to an heir may hold only some). */
export function readablePages(files: readonly string[]): readonly ReadablePage[] {
  return PAGES.filter((p) => p.needs.some((f) => files.includes(f)));
}
