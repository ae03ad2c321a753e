import { env } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import { getTableConfig } from 'drizzle-orm/sqlite-core';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { capsuleBy } from './helpers/capsules';
import { memorialBy, postOn } from './helpers/memorials';
import { EXPORTS, NOT_EXPORTED } from '../src/domains/legal/export/export-plan';
import { tableRows } from '../src/domains/legal/export/table-rows';
import { OPENER_PAGE_HTML } from '../src/domains/legal/export/opener-page.data';
import { toBase64, toHex } from '../src/lib/encoding';
import { api, signedInUser } from './helpers/api';
import { schemaTables } from './helpers/schema';
import { createCanaryFor } from './helpers/canary';
import { guardianOf } from './helpers/guardian';
import { createMessageFor } from './helpers/messages';
import { envelopeFor, giveVaultItem, withKeys } from './helpers/vault';
import { inviteContact } from './helpers/contacts';
import { endpointFor } from './helpers/webhooks';

/**
 * GET /api/legal/export (docs/decisions/data-export.md): one ZIP archive of everything held about the user. The plan
 * is checked against the schema itself, so a new table cannot be forgotten; the archive is opened by
 * fflate (a ZIP reader independent of the writer) and every file checked against the manifest's SHA-256.
 */

/** Columns that key a row to a user, by name or by a foreign key to users. */
const USER_COLUMNS = new Set(['user_id', 'owner_id', 'sender_id', 'recipient_user_id', 'guardian_user_id']);

describe('the export plan', () => {
  it('names every table of the schema: exported, or not exported with a reason', () => {
    const planned = new Set([...EXPORTS.map((e) => e.table), ...Object.keys(NOT_EXPORTED)]);
    expect(schemaTables.map((t) => t.name).filter((name) => !planned.has(name))).toEqual([]);
    expect(Object.keys(NOT_EXPORTED).filter((name) => EXPORTS.some((e) => e.table === name))).toEqual([]);
    expect(Object.keys(NOT_EXPORTED).filter((name) => !schemaTables.some((t) => t.name === name))).toEqual([]);
  });

  it('exports every table keyed to a user (by a user column or a foreign key to users)', () => {
    const userKeyed = schemaTables.filter(
      (t) => t.columns.some((c) => USER_COLUMNS.has(c.name)) || t.foreignKeys.some((fk) => getTableConfig(fk.reference().foreignTable).name === 'users'),
    );
    expect(userKeyed.map((t) => t.name).filter((name) => !EXPORTS.some((e) => e.table === name))).toEqual([]);
  });

  it('omits only columns that exist (a renamed secret column cannot slip through)', () => {
    for (const plan of EXPORTS) {
      const columns = schemaTables.find((t) => t.name === plan.table)!.columns.map((c) => c.name);
      expect(
        (plan.omit ?? []).filter((c) => !columns.includes(c)),
        plan.file,
      ).toEqual([]);
    }
  });

  it('pages a table stored without a rowid by its primary key, as the database declares it', async () => {
    const { results } = await env.DB.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table'").all<{ name: string; sql: string }>();
    // The schema's own tables (full-text search keeps shadow tables of its own without a rowid).
    const withoutRowid = results.filter((t) => schemaTables.some((s) => s.name === t.name) && /WITHOUT ROWID\s*$/i.test(t.sql)).map((t) => t.name);
    expect(withoutRowid.sort()).toEqual(['activity', 'canary_transitions', 'check_in_links', 'owner_notice_deliveries', 'owner_notices']);
    for (const plan of EXPORTS) {
      if (!withoutRowid.includes(plan.table)) {
        expect(plan.key, plan.file).toBeUndefined();
        continue;
      }
      const columns = (await env.DB.prepare(`PRAGMA table_info(${plan.table})`).all<{ name: string; pk: number }>()).results;
      const primaryKey = columns
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name);
      expect(plan.key, plan.file).toEqual(primaryKey);
    }
  });

  it('streams a table stored without a rowid across pages: every row once, in its key’s order', async () => {
    const owner = await signedInUser();
    const start = Date.UTC(2026, 0, 1);
    // 1,234 lines, three to each millisecond, so a page can end between rows of the same instant.
    await env.DB.prepare(
      `INSERT INTO activity (id, user_id, kind, source, summary, created_at)
       WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 1233)
       SELECT 'a-' || printf('%04d', i), ?1, 'note', 'system', 'A line.', ?2 + i / 3 FROM n`,
    )
      .bind(owner.id, start)
      .run();
    const plan = EXPORTS.find((p) => p.table === 'activity')!;
    const seen: string[] = [];
    for await (const row of tableRows(env.DB, plan, owner.id)) seen.push(String(row.id));
    expect(seen.filter((id) => id.startsWith('a-'))).toEqual(Array.from({ length: 1_234 }, (_, i) => `a-${String(i).padStart(4, '0')}`));
  });
});

async function exportOf(token: string) {
  // Straight to the Worker's fetch: the archive is binary, and helpers/api.ts reads answers as text.
  const res = await exports.default.fetch(new Request('http://afterword.test/api/legal/export', { headers: { authorization: `Bearer ${token}` } }));
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/zip');
  expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="afterword-export-\d{4}-\d{2}-\d{2}\.zip"$/);
  const zip = new Uint8Array(await res.arrayBuffer());
  return { zip, files: unzipSync(zip) };
}

const json = (files: Record<string, Uint8Array>, name: string) => JSON.parse(strFromU8(files[name]!)) as Record<string, unknown>[];

async function sha256(bytes: Uint8Array) {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

describe('GET /api/legal/export', () => {
  it('holds every record and file of the owner, those released to them, a manifest whose hashes match, and no secret', async () => {
    const owner = await signedInUser();
    const friend = await signedInUser();
    const outsider = await signedInUser();
    await withKeys(owner);
    await withKeys(friend);
    await createCanaryFor(owner.token);
    const recording = new Uint8Array([0x4f, 0x67, 0x67, 0x53, ...crypto.getRandomValues(new Uint8Array(300))]);
    const sent = await createMessageFor(owner.token, {
      recipient_user_id: friend.id,
      content: 'SENT-BY-OWNER',
      rules: [{ trigger_type: 'missed_checkins', trigger_value: '3' }],
      audio_base64: toBase64(recording),
    });
    const received = await createMessageFor(friend.token, { recipient_user_id: owner.id, content: 'RELEASED-TO-OWNER' });
    await createMessageFor(friend.token, {
      recipient_user_id: owner.id,
      content: 'NOT-YET-FOR-OWNER',
      rules: [{ trigger_type: 'missed_checkins', trigger_value: '3' }],
    });
    await createMessageFor(outsider.token, { recipient_user_id: friend.id, content: 'OUTSIDER-PRIVATE' });
    const vault = await giveVaultItem(owner, friend, { condition_type: 'death_flag' });
    const key = await api('POST', '/api/developer/keys', { token: owner.token, json: { name: 'exported', scopes: ['read:canary'] } });
    await endpointFor(owner, `export-${crypto.randomUUID()}`);
    await guardianOf(owner, friend);

    const { zip, files } = await exportOf(owner.token);
    const names = Object.keys(files);
    for (const plan of EXPORTS) expect(names).toContain(`data/${plan.file}.json`);
    expect(names).toEqual(expect.arrayContaining(['README.txt', 'index.html', 'manifest.json']));
    expect(names.at(-1)).toBe('manifest.json');

    expect(json(files, 'data/account.json')).toEqual([expect.objectContaining({ id: owner.id, email: owner.email })]);
    expect(json(files, 'data/messages_sent.json').map((m) => m.content)).toEqual(expect.arrayContaining(['SENT-BY-OWNER']));
    expect(json(files, 'data/messages_received.json').map((m) => m.id)).toEqual([received.id]);
    expect(json(files, 'data/vault_items.json').map((i) => i.id)).toEqual([vault.id]);
    expect(json(files, 'data/guardians.json')).toHaveLength(1);
    expect(json(files, 'data/api_keys.json').map((k) => k.id)).toEqual([key.data.id]);
    expect(json(files, 'data/webhooks.json')).toHaveLength(1);
    // The recording, byte for byte; the vault file as stored (ciphertext).
    expect(files[`files/messages_sent/${sent.id}/recording`]).toEqual(recording);
    expect(names.filter((n) => n.startsWith('files/vault/') && n.endsWith('-letter.pdf.enc'))).toHaveLength(1);

    const manifest = JSON.parse(strFromU8(files['manifest.json']!)) as { user_id: string; files: { name: string; size: number; sha256: string }[] };
    expect(manifest.user_id).toBe(owner.id);
    expect(manifest.files.map((f) => f.name).sort()).toEqual(names.filter((n) => n !== 'manifest.json').sort());
    for (const f of manifest.files) {
      expect(f.size, f.name).toBe(files[f.name]!.byteLength);
      expect(f.sha256, f.name).toBe(await sha256(files[f.name]!));
    }

    // Nothing unreleased, nothing of anyone else's, no secret: searched in the archive's every byte.
    const secrets = await env.DB.prepare(
      `SELECT password_hash AS s FROM users WHERE id = ?1
       UNION ALL SELECT token_hash FROM sessions WHERE user_id = ?1
       UNION ALL SELECT token_hash FROM canaries WHERE user_id = ?1
       UNION ALL SELECT key_hash FROM api_keys WHERE user_id = ?1
       UNION ALL SELECT secret_encrypted FROM webhooks WHERE user_id = ?1`,
    )
      .bind(owner.id)
      .all<{ s: string }>();
    const invitation = await env.DB.prepare('SELECT invite_token_hash AS s FROM guardians WHERE owner_id = ?1 AND invite_token_hash IS NOT NULL')
      .bind(owner.id)
      .all<{ s: string }>();
    secrets.results.push(...invitation.results);
    expect(secrets.results.length).toBeGreaterThanOrEqual(5);
    const text =
      new TextDecoder('latin1').decode(zip) +
      Object.values(files)
        .map((b) => new TextDecoder('latin1').decode(b))
        .join('');
    for (const { s } of secrets.results) expect(text.includes(s), 'a secret in the archive').toBe(false);
    expect(text.includes(owner.token)).toBe(false);
    expect(text.includes(key.data.key)).toBe(false);
    expect(text).not.toContain('NOT-YET-FOR-OWNER');
    expect(text).not.toContain('OUTSIDER-PRIVATE');
    expect(text).not.toContain(outsider.email);
  });

  it('gives an anonymous capsule to its own author, and to no one else; memorials, posts and candles to who made them', async () => {
    const [author, reader] = await Promise.all([signedInUser(), signedInUser()]);
    const capsule = await capsuleBy(author, { is_anonymous: true, content: [{ type: 'text', data: 'ANONYMOUS-WORDS' }] });
    const mine = (await exportOf(author.token)).files;
    expect(json(mine, 'data/capsules.json')).toEqual([expect.objectContaining({ id: capsule.id, is_anonymous: 1 })]);
    expect(json(mine, 'data/capsule_items.json').map((i) => i.data)).toEqual(['ANONYMOUS-WORDS']);
    const memorial = await memorialBy(author);
    const post = await postOn(memorial.id, reader, 'READER-POST');
    await api('POST', `/api/memorial/candle/${post.id}`, { token: author.token });
    const after = (await exportOf(author.token)).files;
    expect(json(after, 'data/memorials.json').map((m) => m.id)).toEqual([memorial.id]);
    expect(json(after, 'data/memorial_posts.json')).toEqual([]);
    expect(json(after, 'data/memorial_candles.json')).toEqual([expect.objectContaining({ post_id: post.id })]);
    const theirs = (await exportOf(reader.token)).files;
    expect(json(theirs, 'data/memorial_posts.json').map((p) => p.text)).toEqual(['READER-POST']);
    expect(json(theirs, 'data/capsules.json')).toEqual([]);
    expect(json(theirs, 'data/capsule_items.json')).toEqual([]);
  });

  it('is one person’s only: the friend’s archive has the message they received, not the owner’s others', async () => {
    const owner = await signedInUser();
    const friend = await signedInUser();
    await createMessageFor(owner.token, { recipient_user_id: friend.id, content: 'FOR-FRIEND-NOW' });
    await createMessageFor(owner.token, {
      recipient_user_id: friend.id,
      content: 'FOR-FRIEND-LATER',
      rules: [{ trigger_type: 'missed_checkins', trigger_value: '2' }],
    });
    const { files } = await exportOf(friend.token);
    expect(json(files, 'data/messages_received.json').map((m) => m.content)).toEqual(['FOR-FRIEND-NOW']);
    expect(json(files, 'data/messages_received.json')[0]).not.toHaveProperty('rules');
    expect(json(files, 'data/messages_sent.json')).toEqual([]);
  });

  it('holds the feed’s lines of the token check-ins its canaries’ objects keep (D1 stores no row for each)', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600, name: 'Server' });
    const pings = [];
    for (let i = 0; i < 2; i++) pings.push((await api('POST', `/api/ping/${canary.token}`)).data.last_check_in as string);
    const feed = (await api('GET', '/api/activity', { token: owner.token })).data as { id: string; kind: string }[];
    const { files } = await exportOf(owner.token);
    const lines = json(files, 'data/activity.json').filter((a) => a.kind === 'check_in');
    expect(lines.map((a) => [a.summary, a.created_at])).toEqual(pings.map((at) => ['Checked in by a heartbeat ping: "Server".', Date.parse(at)]));
    expect(lines.map((a) => a.id).sort()).toEqual(
      feed
        .filter((a) => a.kind === 'check_in')
        .map((a) => a.id)
        .sort(),
    );
    // A second archive has each line once.
    expect(json((await exportOf(owner.token)).files, 'data/activity.json').filter((a) => a.kind === 'check_in')).toHaveLength(2);
  });

  it('needs a session: 401 without one, 403 for an API key', async () => {
    const owner = await signedInUser();
    expect((await api('GET', '/api/legal/export')).status).toBe(401);
    const key = await api('POST', '/api/developer/keys', { token: owner.token, json: { name: 'k', scopes: ['read:canary'] } });
    expect((await api('GET', '/api/legal/export', { token: key.data.key })).status).toBe(403);
  });
});

describe('the archive as pages a person reads', () => {
  const INJECTION = '<script>alert("owner")</script><img src=x onerror=alert(1)>';

  it('shows the owner’s profile, messages with recipients, rules and status, canaries and their check-ins, the vault, contacts, guardians and consents', async () => {
    const owner = await signedInUser();
    const friend = await signedInUser();
    await withKeys(owner);
    await withKeys(friend);
    const canary = await createCanaryFor(owner.token, { interval_seconds: 2 * 86_400, name: 'Morning coffee' });
    expect((await api('POST', '/api/canary/checkin', { token: owner.token, json: {} })).status).toBeLessThan(300);
    const plain = await createMessageFor(owner.token, {
      recipient_user_id: friend.id,
      content: `Dear friend ${INJECTION}`,
      rules: [{ trigger_type: 'missed_checkins', trigger_value: '3' }],
    });
    const sealed = await createMessageFor(owner.token, {
      recipient_user_id: friend.id,
      content: '',
      content_encrypted: envelopeFor(friend.id, owner.id),
      use_e2ee: true,
    });
    await giveVaultItem(owner, friend, { condition_type: 'death_flag' });
    await guardianOf(owner, friend);
    await inviteContact(owner, 'cousin@example.com');
    expect((await api('POST', '/api/legal/consent/voice', { token: owner.token, json: { consent: false } })).status).toBe(200);

    const { files } = await exportOf(owner.token);
    const page = (name: string) => strFromU8(files[name]!);

    const index = page('index.html');
    expect(index).toContain(owner.email);
    for (const link of ['messages.html', 'canaries.html', 'vault.html', 'people.html', 'open-encrypted-files.html', 'README.txt'])
      expect(index).toContain(`href="${link}"`);
    expect(index).toMatch(/<td>voice<\/td><td>withdrawn<\/td>/);
    // The Files section lists every file before it with its size and SHA-256.
    const vaultFile = Object.keys(files).find((n) => n.startsWith('files/vault/'))!;
    expect(index).toContain(`<code>${await sha256(files[vaultFile]!)}</code>`);

    const messages = page('messages.html');
    expect(messages).toContain(`id="message-${plain.id}"`);
    expect(messages).toContain(`To ${friend.email}`);
    expect(messages).toContain('after 3 missed check-ins');
    expect(messages).toContain('<dt>Status</dt><dd>scheduled</dd>');
    expect(messages).toMatch(new RegExp(`id="message-${sealed.id}"[\\s\\S]*?End-to-end encrypted: its text is sealed[\\s\\S]*?open-encrypted-files\\.html`));

    const canaries = page('canaries.html');
    expect(canaries).toContain('Morning coffee');
    expect(canaries).toContain('every 2 days');
    expect(canaries).toMatch(/<td>Morning coffee<\/td><td>check.?in<\/td>/);
    expect(canary.id).toBeTruthy();

    const vault = page('vault.html');
    expect(vault).toContain('letter.pdf');
    expect(vault).toContain(`href="${vaultFile}"`);
    expect(vault).toContain('once a death is confirmed');

    const people = page('people.html');
    expect(people).toContain('cousin@example.com');
    expect(people).toMatch(new RegExp(`<h2>Your guardians</h2>[\\s\\S]*${friend.email.replace(/[.+]/g, '\\$&')}`));

    // One readable date format everywhere ("Tue, 24 Nov 2026, 00:29 UTC"), never a raw timestamp.
    expect(index).toMatch(/<dt>Signed up<\/dt><dd>\w{3}, \d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC<\/dd>/);
    expect(messages).not.toMatch(/\b1\d{12}\b/);
  });

  it('escapes what people typed: a message body is text on the page, never markup', async () => {
    const owner = await signedInUser();
    const friend = await signedInUser();
    await createMessageFor(owner.token, { recipient_user_id: friend.id, content: INJECTION });
    await createCanaryFor(owner.token, { interval_seconds: 3600, name: '<b onmouseover=alert(2)>canary</b>' });
    const { files } = await exportOf(owner.token);
    const pages = ['index.html', 'messages.html', 'canaries.html', 'people.html'].map((n) => strFromU8(files[n]!));
    for (const html of pages) {
      expect(html).not.toContain('<script');
      expect(html).not.toContain('<img src=x');
      expect(html).not.toContain('<b onmouseover');
    }
    expect(pages[1]).toContain('&#60;script&#62;alert(&#34;owner&#34;)&#60;/script&#62;');
    expect(pages[2]).toContain('&#60;b onmouseover=alert(2)&#62;canary&#60;/b&#62;');
  });

  it('pages and the opener load nothing from anywhere: inline CSS, a CSP of default-src none, the opener’s one script by its hash', async () => {
    const owner = await signedInUser();
    await withKeys(owner);
    const { files } = await exportOf(owner.token);
    for (const name of ['index.html', 'messages.html', 'canaries.html', 'vault.html', 'people.html', 'open-encrypted-files.html']) {
      const html = strFromU8(files[name]!);
      expect(html, name).toContain("default-src 'none'");
      expect(html, name).not.toMatch(/(src|href)="(https?:)?\/\//);
    }
    const opener = strFromU8(files['open-encrypted-files.html']!);
    expect(opener).toBe(OPENER_PAGE_HTML);
    const script = opener.match(/<script>([\s\S]*)<\/script>/)![1]!;
    const hash = toBase64(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(script))));
    expect(opener).toContain(`script-src 'sha256-${hash}'`);
    const readme = strFromU8(files['README.txt']!);
    expect(readme.indexOf('index.html')).toBeLessThan(readme.indexOf('Opening end-to-end encrypted files by hand'));
    expect(readme.indexOf('open-encrypted-files.html')).toBeLessThan(readme.indexOf('Opening end-to-end encrypted files by hand'));
  });
});
