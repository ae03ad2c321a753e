import { esc, table, when } from './html';
import { hasPlan, type PageSource, peopleNames, rowsOf } from './page-source';

/** people.html: contacts (both ways), the person's guardians, and the people they guard. */
export async function* peoplePage(s: PageSource): AsyncGenerator<string> {
  const name = await peopleNames(s);
  if (hasPlan(s, 'contacts')) {
    const rows: string[][] = [];
    for await (const c of rowsOf(s, 'contacts')) {
      const mine = c.owner_id === s.userId;
      rows.push([
        esc(mine ? c.email : name(c.owner_id)),
        mine ? 'you invited them' : 'they invited you',
        esc(c.status),
        when(c.invited_at),
        when(c.responded_at),
      ]);
    }
    yield '<h2>Contacts</h2>\n';
    yield table(['Person', 'Who asked', 'Status', 'Invited', 'Answered'], rows, 'No contacts.');
  }
  if (hasPlan(s, 'guardians')) {
    const rows: string[][] = [];
    for await (const g of rowsOf(s, 'guardians')) rows.push([esc(g.email), esc(g.status), when(g.invited_at), when(g.responded_at), when(g.ended_at)]);
    yield '\n<h2>Your guardians</h2>\n';
    yield table(['Person', 'Status', 'Invited', 'Answered', 'Ended'], rows, 'No guardians.');
  }
  if (hasPlan(s, 'guardianships')) {
    const rows: string[][] = [];
    for await (const g of rowsOf(s, 'guardianships'))
      rows.push([esc(name(g.owner_id)), esc(g.status), when(g.invited_at), when(g.responded_at), when(g.ended_at)]);
    yield '\n<h2>People you guard</h2>\n';
    yield table(['Person', 'Status', 'Invited', 'Answered', 'Ended'], rows, 'You guard no one.');
  }
}
