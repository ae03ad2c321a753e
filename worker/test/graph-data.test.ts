import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { api, signedInUser } from './helpers/api';
import { createMessageFor } from './helpers/messages';
import { guardianOf } from './helpers/guardian';
import { createCanaryFor } from './helpers/canary';
import { keyBundle } from './helpers/e2ee';
import { giveVaultItem } from './helpers/vault';

describe('GET /api/graph/data', () => {
  it('draws the owner’s legacy as typed links, with no message content, and nothing of another person’s', async () => {
    const [owner, recipient, guardian, outsider] = await Promise.all([signedInUser(), signedInUser(), signedInUser(), signedInUser()]);
    await env.DB.prepare("UPDATE users SET display_name = 'Robin' WHERE id = ?").bind(recipient.id).run();
    expect((await api('POST', '/api/trpc/keys.create', { token: recipient.token, json: keyBundle() })).status).toBe(200);
    const item = await giveVaultItem(owner, recipient, { condition_type: 'death_flag' });
    const canary = await createCanaryFor(owner.token, { name: 'Morning' });
    await guardianOf(owner, guardian);
    const held = await createMessageFor(owner.token, {
      recipient_user_id: recipient.id,
      content: 'the secret words',
      rules: [{ trigger_type: 'missed_checkins', trigger_value: '2' }],
    });
    const afterDeath = await createMessageFor(owner.token, {
      recipient_user_id: recipient.id,
      rules: [{ trigger_type: 'delay_after_death', trigger_value: '0' }],
    });
    await createMessageFor(outsider.token, { recipient_user_id: recipient.id });

    const res = await api('GET', '/api/graph/data', { token: owner.token });
    expect(res.status).toBe(200);
    const { nodes, links } = res.data as { nodes: { id: string; type: string }[]; links: { source: string; target: string; type: string }[] };
    expect(JSON.stringify(res.data)).not.toContain('the secret words');
    const guardianRow = (await env.DB.prepare('SELECT id FROM guardians WHERE owner_id = ?').bind(owner.id).first<{ id: string }>())!;
    const o = `owner:${owner.id}`;
    // The vault item travels in a message of its own (domains/vault), so three messages in all.
    expect(nodes.map((n) => n.type).sort()).toEqual(['canary', 'guardian', 'message', 'message', 'message', 'owner', 'recipient', 'vault_item']);
    // The vault item's own message: the one message node that is neither of the two written here.
    const carrier = nodes.find((n) => n.type === 'message' && n.id !== `message:${held.id}` && n.id !== `message:${afterDeath.id}`)!.id;
    const byText = (a: { source: string; target: string; type: string }, b: { source: string; target: string; type: string }) =>
      `${a.source}>${a.target}>${a.type}`.localeCompare(`${b.source}>${b.target}>${b.type}`);
    expect([...links].sort(byText)).toEqual(
      [
        { source: o, target: `canary:${canary.id}`, type: 'checks_in' },
        { source: o, target: `guardian:${guardianRow.id}`, type: 'guarded_by' },
        { source: o, target: `message:${held.id}`, type: 'wrote' },
        { source: `message:${held.id}`, target: `recipient:${recipient.id}`, type: 'sends_to' },
        { source: `message:${held.id}`, target: `canary:${canary.id}`, type: 'released_by' },
        { source: o, target: `message:${afterDeath.id}`, type: 'wrote' },
        { source: `message:${afterDeath.id}`, target: `recipient:${recipient.id}`, type: 'sends_to' },
        { source: `message:${afterDeath.id}`, target: `guardian:${guardianRow.id}`, type: 'released_by' },
        { source: o, target: carrier, type: 'wrote' },
        { source: carrier, target: `recipient:${recipient.id}`, type: 'sends_to' },
        { source: carrier, target: `guardian:${guardianRow.id}`, type: 'released_by' },
        { source: o, target: `vault_item:${item.id}`, type: 'stores' },
        { source: `vault_item:${item.id}`, target: `recipient:${recipient.id}`, type: 'given_to' },
      ].sort(byText),
    );
    // One recipient node however many things go to them.
    expect(nodes.filter((n) => n.type === 'recipient')).toHaveLength(1);
    // Every link joins two nodes of the answer.
    const ids = new Set(nodes.map((n) => n.id));
    for (const l of links) expect(ids.has(l.source) && ids.has(l.target)).toBe(true);
    expect(nodes.find((n) => n.id === `recipient:${recipient.id}`)).toMatchObject({ label: `Robin (${recipient.email})` });

    const theirs = await api('GET', '/api/trpc/graph.data', { token: outsider.token });
    expect(theirs.data.result.data.nodes.map((n: { type: string }) => n.type).sort()).toEqual(['message', 'owner', 'recipient']);
  });
});
