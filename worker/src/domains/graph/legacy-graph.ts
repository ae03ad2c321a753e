import type { User } from '@afterword/db/schema';
import type { GraphData } from '../../contracts/graph';
import type { ServiceContext } from '../../env';
import { personLabel } from '../../lib/person-label';

type Node = GraphData['nodes'][number];
type Link = GraphData['links'][number];

/**
 * GET /api/graph/data (docs/api.md): the owner's legacy as nodes and typed links — the owner, their
 * canaries, the messages they wrote, their vault items, the people those go to, and their guardians.
 * Only names, addresses, statuses and how things connect: never a message's text or a file's bytes or
 * name. A message with a missed-check-ins rule is `released_by` each canary (any missed canary arms
 * it); one with a delay-after-death rule is `released_by` the active guardians who confirm the death.
 */
export async function readLegacyGraph(ctx: ServiceContext, owner: Pick<User, 'id' | 'email' | 'display_name'>): Promise<GraphData> {
  const db = ctx.env.DB;
  const [canaries, messages, vault, guardians] = await Promise.all([
    db
      .prepare('SELECT id, name, active FROM canaries WHERE user_id = ?1 ORDER BY created_at')
      .bind(owner.id)
      .all<{ id: string; name: string; active: number }>(),
    db
      .prepare(
        `SELECT m.id, m.status, m.rules, u.id AS rid, u.email, u.display_name FROM messages m JOIN users u ON u.id = m.recipient_user_id
         WHERE m.sender_id = ?1 ORDER BY m.created_at LIMIT 1000`,
      )
      .bind(owner.id)
      .all<{ id: string; status: string; rules: string; rid: string; email: string; display_name: string }>(),
    db
      .prepare(
        `SELECT v.id, v.condition_type, u.id AS rid, u.email, u.display_name FROM vault_items v JOIN users u ON u.id = v.recipient_user_id
         WHERE v.owner_id = ?1 ORDER BY v.created_at LIMIT 1000`,
      )
      .bind(owner.id)
      .all<{ id: string; condition_type: string; rid: string; email: string; display_name: string }>(),
    db
      .prepare("SELECT id, email, status FROM guardians WHERE owner_id = ?1 AND status IN ('invited', 'active') ORDER BY invited_at")
      .bind(owner.id)
      .all<{ id: string; email: string; status: string }>(),
  ]);

  const nodes: Node[] = [{ id: `owner:${owner.id}`, type: 'owner', label: personLabel(owner), status: null }];
  const links: Link[] = [];
  const recipients = new Set<string>();
  const recipient = (r: { rid: string; email: string; display_name: string }) => {
    const id = `recipient:${r.rid}`;
    if (!recipients.has(id)) {
      recipients.add(id);
      nodes.push({ id, type: 'recipient', label: personLabel(r), status: null });
    }
    return id;
  };
  const ownerId = `owner:${owner.id}`;
  for (const c of canaries.results) {
    nodes.push({ id: `canary:${c.id}`, type: 'canary', label: c.name || 'Canary', status: c.active ? 'active' : 'paused' });
    links.push({ source: ownerId, target: `canary:${c.id}`, type: 'checks_in' });
  }
  const activeGuardians = guardians.results.filter((g) => g.status === 'active').map((g) => `guardian:${g.id}`);
  for (const g of guardians.results) {
    nodes.push({ id: `guardian:${g.id}`, type: 'guardian', label: g.email, status: g.status });
    links.push({ source: ownerId, target: `guardian:${g.id}`, type: 'guarded_by' });
  }
  for (const m of messages.results) {
    const id = `message:${m.id}`;
    nodes.push({ id, type: 'message', label: 'Message', status: m.status });
    links.push({ source: ownerId, target: id, type: 'wrote' }, { source: id, target: recipient(m), type: 'sends_to' });
    const triggers = new Set(parseRules(m.rules));
    if (triggers.has('missed_checkins')) for (const c of canaries.results) links.push({ source: id, target: `canary:${c.id}`, type: 'released_by' });
    if (triggers.has('delay_after_death')) for (const g of activeGuardians) links.push({ source: id, target: g, type: 'released_by' });
  }
  for (const v of vault.results) {
    const id = `vault_item:${v.id}`;
    nodes.push({ id, type: 'vault_item', label: 'Vault item', status: v.condition_type });
    links.push({ source: ownerId, target: id, type: 'stores' }, { source: id, target: recipient(v), type: 'given_to' });
  }
  return { nodes, links };
}

function parseRules(json: string): string[] {
  try {
    const rules = JSON.parse(json) as { trigger_type?: string }[];
    return Array.isArray(rules) ? rules.map((r) => String(r.trigger_type)) : [];
  } catch {
    return [];
  }
}
