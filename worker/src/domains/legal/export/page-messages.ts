import { esc, field, fileLink, table, when } from './html';
import { groupRows, hasPlan, openerNote, type PageSource, peopleNames, rowsOf } from './page-source';

/** A stored release rule as the person set it (db/schema/messages.ts StoredRule). */
function ruleText(rule: Record<string, unknown>): string {
  const v = String(rule.trigger_value ?? '');
  const fired = typeof rule.fired_at === 'number' ? ` (fired ${when(rule.fired_at)})` : '';
  switch (rule.trigger_type) {
    case 'missed_checkins':
      return `after ${esc(v)} missed check-in${v === '1' ? '' : 's'}${fired}`;
    case 'fixed_date':
      return `on ${Number.isNaN(Date.parse(v)) ? esc(v) : when(Date.parse(v))}${fired}`;
    case 'delay_after_death':
      return `${esc(v)} day${v === '1' ? '' : 's'} after a death is confirmed${fired}`;
    case 'recipient_birthday':
      return `on the recipient’s birthday (${esc(v)}) after a death is confirmed${fired}`;
    default:
      return `${esc(rule.trigger_type)} ${esc(v)}${fired}`;
  }
}

function rulesText(stored: unknown): string {
  let rules: unknown;
  try {
    rules = typeof stored === 'string' ? JSON.parse(stored) : stored;
  } catch {
    return esc(stored);
  }
  if (!Array.isArray(rules) || rules.length === 0) return 'at its delivery date only';
  return rules.map((r) => ruleText(r as Record<string, unknown>)).join('; or ');
}

/** What a sealed message says in place of its text, and where it points for the files. */
const sealedNote = (opener: string) =>
  `<p class="sealed">End-to-end encrypted: its text is sealed, and Afterword never had its key. ${
    opener.startsWith('<a')
      ? '<a href="open-encrypted-files.html">Open it</a> (open-encrypted-files.html) with your recovery key or password.'
      : `It and its files: ${opener}.`
  }</p>`;

interface MessageContext {
  name: (id: unknown) => string;
  history: Map<string, Record<string, unknown>[]>;
  attachments: Map<string, Record<string, unknown>[]>;
  paths: ReadonlyMap<string, string>;
  opener: string;
}

function messageArticle(m: Record<string, unknown>, received: boolean, c: MessageContext): string {
  const id = String(m.id);
  const files = [
    ...(typeof m.audio_key === 'string' && c.paths.has(m.audio_key) ? [fileLink(c.paths.get(m.audio_key)!, `Recording (${esc(m.audio_type)})`)] : []),
    ...(c.attachments.get(id) ?? []).map((a) => {
      const path = c.paths.get(String(a.r2_key));
      return path ? fileLink(path, String(a.name)) : `${esc(a.name)} (not in this archive)`;
    }),
  ];
  const history = (c.history.get(id) ?? []).map((t) => [when(t.created_at), esc(t.from_status ?? '—'), esc(t.to_status), esc(t.detail || t.cause)]);
  return `<article id="message-${esc(id)}">
<h3>${received ? `From ${esc(c.name(m.sender_id))}` : `To ${esc(c.name(m.recipient_user_id))}`}</h3>
<dl>${[
    field('Status', esc(m.status)),
    field('Sent by', esc(m.delivery_method)),
    received ? '' : field('Released', rulesText(m.rules)),
    received ? '' : field('Delivery date', when(m.deliver_at)),
    field('Written', when(m.created_at)),
    field('Released on', when(m.released_at)),
  ].join('')}</dl>
${m.content_encrypted ? sealedNote(c.opener) : `<p class="text">${esc(m.content) || '(no text)'}</p>`}
${files.length ? `<p>Files (those ending in .enc are encrypted: ${c.opener}):</p><ul>${files.map((f) => `<li>${f}</li>`).join('')}</ul>` : ''}
${history.length ? `<details><summary>History</summary>${table(['When', 'From', 'To', 'Why'], history, '')}</details>` : ''}
<p class="empty">Message id <code>${esc(id)}</code></p>
</article>
`;
}

/** messages.html: the messages the person wrote (with recipients, rules, status, history) and those released to them. */
export async function* messagesPage(s: PageSource): AsyncGenerator<string> {
  const c: MessageContext = {
    name: await peopleNames(s),
    history: await groupRows(s, 'message_history', 'message_id'),
    attachments: await groupRows(s, 'attachments', 'message_id'),
    paths: s.paths,
    opener: openerNote(s),
  };
  for (const [file, heading, received] of [
    ['messages_sent', 'Messages you wrote', false],
    ['messages_received', 'Messages released to you', true],
  ] as const) {
    if (!hasPlan(s, file)) continue;
    yield `<h2>${heading}</h2>\n`;
    let count = 0;
    for await (const m of rowsOf(s, file)) {
      count++;
      yield messageArticle(m, received, c);
    }
    if (count === 0) yield '<p class="empty">None.</p>\n';
  }
}
