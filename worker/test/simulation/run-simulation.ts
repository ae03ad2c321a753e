import { createExecutionContext, env, evictDurableObject, runDurableObjectAlarm, runInDurableObject, waitOnExecutionContext } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import { vi } from 'vitest';
import worker from '../../src/index';
import { createSession } from '../../src/domains/auth/sessions';
import { createServiceContext } from '../../src/wiring/service-context';
import { DEFAULT_NOTIFY_PREFERENCES } from '../../src/contracts/notify';
import { toBase64 } from '../../src/lib/encoding';
import { signedInUser } from '../helpers/api';
import { keyBundle } from '../helpers/e2ee';
import { cipherBlob, envelopeFor, vaultForm } from '../helpers/vault';
import type { BehaviourLog, CanaryLog, HeirLog, MessageLog, PersonLog, RuleLog } from './behaviour-log';
import { emptyUsage, type Usage } from './costs';
import { type Call, runAsCall } from './crash-points';
import { DEADMAN_WARNING_SUBJECT, ErasureWatch, firstOfEachNotice, type MailRow, nextYearsOf } from './erasure-watch';
import { DEFAULT_FAULTS, drawOutages, type FaultRates } from './faults';
import { AlarmBook, type ArmedAlarm, instrument, quietly, type Switches } from './instrument';
import { DAY, drawPopulation, type MessagePlan, type PersonPlan, type VaultPlan } from './population';
import { seeded } from './random';
import { SimQueues, type QueueStats } from './sim-queues';
import type { EngineRows } from './diagnostics';

/**
 * One run of the whole switch: people drawn from a seed (population.ts) use the real Worker — its fetch
 * handler for every request, the objects' real alarms (runDurableObjectAlarm), the real queue handler
 * (sim-queues.ts), the real cron handler — under a fake clock (the global Date, which the Worker, its
 * objects and its consumers all read), with the faults of faults.ts. What happened is written to a
 * behaviour log for the oracle (oracle.ts).
 *
 * The fake clock starts far after the real one (SIM_EPOCH), so the runtime's own alarm scheduler, which keeps
 * real time, never fires during a run: every alarm runs here, when the simulation says it is due.
 */
export interface SimulationOptions {
  seed: number;
  people: number;
  days: number;
  faults?: FaultRates;
  /** The simulation's step: everything due within a step happens at its end (default 5 minutes). */
  stepMs?: number;
  /** How often the every-minute cron runs here (default every hour, to keep runs short; the lateness bound allows for it). */
  cronEveryMs?: number;
  /** Progress lines (the full run prints one per simulated week). */
  progress?: (line: string) => void;
}

export interface SimulationRun {
  log: BehaviourLog;
  usage: Usage;
  userDays: number;
  queueStats: QueueStats;
  /** The objects' alarms as run (late, lost, twice, failed), and the objects evicted from memory (`evicted`). */
  alarmStats: { run: number; late: number; lost: number; lostInLapse: number; twice: number; failed: number; evicted: number };
  checkInAttemptsRefused: number;
  /** Messages people meant to write during the run that the service refused for good (403, 404). */
  messagesNotWritten: number;
  /**
   * Messages the service holds (of senders still there, vault items apart) that no one's log wrote: a create whose
   * answer was lost and that was sent again must not leave a second message behind. Any fails the run.
   */
  unwrittenMessages: { sender: number; id: string }[];
  /** Heartbeat users who signed in again when their session ran out. */
  signIns: number;
  /** Owner notices that reached a device by push, and the canary warnings whose first copy to reach the owner was that one. */
  noticesByPush: number;
  warningsFirstByPush: number;
  /** People who chose push as their only method. */
  pushAlone: number;
  wallMs: number;
  /** Where the run's wall time went. */
  phaseMs: Record<'setup' | 'checkIns' | 'alarms' | 'queues' | 'cron' | 'judge', number>;
  /** A person's engine rows as last read before the run erased their account (for a failure's report only). */
  engineBeforeErasureOf: (person: number) => EngineRows | undefined;
}

const POOL = 8;
/** Canary rows in D1 (an earlier run's in the same file stay, put to rest). */
const countCanaries = async () => (await env.DB.prepare('SELECT count(*) AS n FROM canaries').first<{ n: number }>())?.n ?? 0;

/**
 * What each table holds, bytes: the length of every value of every row (text and blobs as stored, numbers as their
 * digits), without pages, keys' index entries or SQLite's own overhead — which table D1's size grows with, not
 * the size itself (local D1 has no `dbstat`).
 */
async function payloadBytesByTable(): Promise<Record<string, number>> {
  const { results: tables } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%'",
  ).all<{ name: string }>();
  const out: Record<string, number> = {};
  for (const { name } of tables) {
    const { results: cols } = await env.DB.prepare(`SELECT name FROM pragma_table_info(?)`).bind(name).all<{ name: string }>();
    if (!cols.length) continue;
    const sum = cols.map((c) => `coalesce(length("${c.name}"), 0)`).join(' + ');
    const row = await env.DB.prepare(`SELECT sum(${sum}) AS bytes FROM "${name}"`).first<{ bytes: number | null }>();
    if (row?.bytes) out[name] = row.bytes;
  }
  return out;
}

/** A person's check-in schedule: the canaries each check-in is on, when they mean to, and how many are done. */
interface CheckInStream {
  canaries: number[];
  times: number[];
  next: number;
}

/**
 * The lapse a canary's owner is in at `now`, if any: a key for it while they will not check in on this canary
 * before a whole interval has passed (dead, every check-in of its schedule made, or the next one further off
 * than the interval: a miss is coming), null otherwise.
 */
function lapseOf(p: { index: number; streams: CheckInStream[]; canaries: CanaryLog[] }, canary: number, dead: ReadonlySet<number>, now: number) {
  if (dead.has(p.index)) return 'dead';
  const stream = p.streams.find((s) => s.canaries.includes(canary));
  if (!stream) return null;
  const next = stream.times[stream.next];
  return next === undefined || next - now > p.canaries[canary]!.intervalMs ? `before check-in ${stream.next}` : null;
}

/**
 * Where a run's fake clock starts: a Monday's midnight (UTC) far past the real clock, so the runtime's own alarm
 * scheduler never fires during a run, and the same for a seed whenever it runs — quiet hours, weekdays of
 * calendar canaries and daylight-saving changes fall on the same instants of its run. (It used to start a day
 * after the real clock, on the hour: a seed's outcome then hung on the hour it ran at.) A later run in the same
 * file starts on the first Monday a day after the previous one ended. Workerd refuses alarm times after 2189.
 */
const SIM_EPOCH = Date.UTC(2100, 0, 4);
const WEEK = 7 * DAY;
let lastEnd = 0;

async function inPool<T>(items: readonly T[], fn: (item: T) => Promise<void>) {
  let i = 0;
  await Promise.all(
    Array.from({ length: Math.min(POOL, items.length) }, async () => {
      while (i < items.length) await fn(items[i++]!);
    }),
  );
}

async function request(usage: Usage, switches: Switches, method: string, path: string, token: string | null, json?: unknown) {
  const headers = new Headers();
  if (token) headers.set('authorization', `Bearer ${token}`);
  // A form (a vault upload) sets its own multipart content type.
  const form = json instanceof FormData;
  if (json !== undefined && !form) headers.set('content-type', 'application/json');
  const started = performance.now();
  // The request can crash between two of its steps (crash-points.ts): its person then gets the runtime's error,
  // whatever the Worker's code went on to answer after its later steps failed.
  const call: Call = { kind: 'request', crashed: false };
  // Handed to the Worker's fetch in this isolate (as the cron is), so the call's steps are known to be its own;
  // what it leaves running (`waitUntil`) goes on after its answer, as on Cloudflare, and is not awaited.
  const res = await runAsCall(call, () =>
    worker.fetch(
      new Request(`http://afterword.test${path}`, { method, headers, body: json === undefined ? undefined : form ? json : JSON.stringify(json) }),
      env,
      createExecutionContext(),
    ),
  );
  const text = await res.text();
  if (switches.counting) {
    usage.workerRequests += 1;
    usage.workerWallMs += performance.now() - started;
  }
  if (call.crashed) return { status: 500, data: { detail: 'The request crashed (simulated).' } };
  return { status: res.status, data: text ? JSON.parse(text) : null };
}

/** The consents people of the run withdraw and allow again (the path of POST /api/legal/consent/{kind}). */
const SIMULATED_CONSENTS = ['messages', 'guardian'] as const;
type SimulatedConsent = (typeof SIMULATED_CONSENTS)[number];

/** The next change of a consent a person still means to make (undefined: none left). */
const pendingConsent = (p: { plan: PersonPlan; nextConsent: Record<SimulatedConsent, number> }, kind: SimulatedConsent) =>
  (kind === 'messages' ? p.plan.consent : p.plan.guardianConsent)[p.nextConsent[kind]];

const stubOf = (a: Pick<ArmedAlarm, 'kind' | 'id'>) => {
  const ns = a.kind === 'canary' ? env.CANARY_CLOCK : a.kind === 'release' ? env.RELEASE_CLOCK : env.GUARDIAN_CLOCK;
  return ns.get(ns.idFromString(a.id));
};

/**
 * Loses an alarm: never run, and gone from its object's storage too, as a lost alarm is — no later call to the
 * object finds it there and runs it; only a new arming (a check-in's, a warning's report) or the reconciler
 * brings it back.
 */
const loseAlarm = (a: ArmedAlarm) => runInDurableObject(stubOf(a), (_object, state) => state.storage.deleteAlarm());

type Answer = Awaited<ReturnType<typeof request>>;
/** How a person's request goes out: plainly (before the run), or signing in again when their session ran out. */
type Send = (method: string, path: string, json: unknown) => Promise<Answer>;

const createKeys = new WeakMap<MessagePlan, string>();
const createKeyOf = (m: MessagePlan) => createKeys.get(m) ?? createKeys.set(m, crypto.randomUUID()).get(m)!;

/** Writes one planned message over the API, as the web app does; `log` is what the oracle will read of it. */
async function writeMessage(
  p: { index: number },
  m: MessagePlan,
  at: number,
  send: Send,
  recipients: readonly { userId: string }[],
  start: number,
): Promise<Answer & { log?: MessageLog }> {
  const deliverAt = start + m.deliverAtMs;
  const rules = m.rules.map((r): Exclude<RuleLog, { type: 'recipient_birthday' }> => {
    if (r.type === 'missed_checkins') return { type: r.type, n: r.n, windowMs: r.windowDays * DAY };
    if (r.type === 'fixed_date') return { type: r.type, at: start + r.atMs, windowMs: r.windowDays * DAY };
    return { type: r.type, delayMs: r.days * DAY, windowMs: r.windowDays * DAY };
  });
  const res = await send('POST', '/api/message/create', {
    // One key per planned message, as the web app's form keeps one per message (create-retry-key.ts): a create
    // whose answer was lost and is sent again at the next step writes it once.
    idempotency_key: createKeyOf(m),
    recipient_user_id: recipients[m.recipient]!.userId,
    content: `From person ${p.index} to person ${m.recipient}`,
    delivery_method: m.method ?? 'email',
    deliver_at: new Date(deliverAt).toISOString(),
    consent: true,
    rules: rules.map((r) => ({
      trigger_type: r.type,
      trigger_value: r.type === 'missed_checkins' ? r.n : r.type === 'fixed_date' ? new Date(r.at).toISOString() : r.delayMs / DAY,
      expire_window: r.windowMs / DAY,
    })),
  });
  if (res.status !== 201) return res;
  const log: MessageLog = {
    id: res.data.id,
    sender: p.index,
    recipient: m.recipient,
    createdAt: at,
    deliverAt,
    rules,
    channel: m.method ?? 'email',
    releasedAt: null,
    channelDeliveries: 0,
  };
  return { ...res, log };
}

/**
 * The token of the invitation `from` sent to `to`, read from `to`'s mailbox (the local outbox) as they would open it:
 * the email whose subject says what it is and whose text names `from`, and its `/<page>/accept/<token>` link.
 */
async function invitationToken(to: string, from: string, subject: string, page: 'guardian' | 'contacts'): Promise<string> {
  const { results } = await env.DB.prepare('SELECT text FROM outbox_messages WHERE address = ? AND subject LIKE ? AND text LIKE ?')
    .bind(to, `%${subject}%`, `%${from}%`)
    .all<{ text: string }>();
  const link = new RegExp(`/${page}/accept/([A-Za-z0-9_-]+)`);
  const token = results.map((r) => link.exec(r.text)?.[1]).find(Boolean);
  if (!token) throw new Error(`no ${page} invitation from ${from} in ${to}'s mailbox`);
  return token;
}

/** Uploads a file (random bytes standing for its ciphertext, sealed for the owner and the recipient) and gives it under its condition. */
async function giveVaultItem(
  p: { index: number; userId: string },
  v: VaultPlan,
  to: { index: number; userId: string },
  start: number,
  send: (method: string, path: string, body: unknown) => Promise<Answer>,
): Promise<MessageLog> {
  const form = vaultForm({
    file: cipherBlob(2048),
    iv: toBase64(crypto.getRandomValues(new Uint8Array(12))),
    envelope: envelopeFor(p.userId, to.userId),
    consent: 'true',
    name: 'letter.pdf',
  });
  const asset = await send('POST', '/api/vault/create', form);
  if (asset.status !== 201) throw new Error(`vault create: ${asset.status} ${JSON.stringify(asset.data)}`);
  const c = v.condition;
  const day = (ms: number) => new Date(start + ms).toISOString().slice(0, 10);
  const condition =
    c.type === 'exact_date'
      ? { condition_type: c.type, condition_value: c.dateOnly ? day(c.atMs) : new Date(start + c.atMs).toISOString() }
      : c.type === 'death_flag'
        ? { condition_type: c.type }
        : { condition_type: c.type, condition_value: day(c.dayMs).slice(5), every_year: c.everyYear };
  const given = await send('POST', '/api/vault/assign', { asset_id: asset.data.asset_id, recipient_user_id: to.userId, ...condition });
  if (given.status !== 201) throw new Error(`vault assign: ${given.status} ${JSON.stringify(given.data)}`);
  const rules: RuleLog[] =
    c.type === 'exact_date'
      ? [{ type: 'fixed_date', at: c.dateOnly ? Date.parse(day(c.atMs)) : start + c.atMs, windowMs: 0 }]
      : c.type === 'death_flag'
        ? [{ type: 'delay_after_death', delayMs: 0, windowMs: 0 }]
        : [{ type: 'recipient_birthday', monthDay: day(c.dayMs).slice(5), windowMs: 0 }];
  return {
    id: given.data.message_id,
    sender: p.index,
    recipient: to.index,
    createdAt: start,
    deliverAt: start,
    rules,
    channel: 'email',
    releasedAt: null,
    channelDeliveries: 0,
    vault: true,
    ...(c.type === 'recipient_birthday' && c.everyYear ? { yearly: { nextYears: [] } } : {}),
  };
}

/** The words of the notice that tells an heir of a copy (worker/src/domains/legacy/prepare-copies.ts), after the owner's label. */
const COPY_LEFT = ' left you a copy of their Afterword account';
/** Whether a copy's label ("Name (email)", or the email alone) names this owner. */
const labelNames = (label: string, email: string) => label === email || label.endsWith(`(${email})`);

/**
 * What reached an heir from one owner by the end of the run, as the heir sees it: the copies their Inbox lists from
 * that owner (each downloaded, to see the archive come whole), and the notices telling them of one.
 */
async function readWhatReachedHeir(owner: { email: string }, h: HeirLog, heir: { userId: string }, mailbox: MailRow[]) {
  h.told = firstOfEachNotice(mailbox)
    .filter((row) => row.subject.endsWith(COPY_LEFT) && labelNames(row.subject.slice(0, -COPY_LEFT.length), owner.email))
    .map((row) => row.created_at);
  // Their session may have run out: they sign in again, as they would to open their Inbox.
  const token = (await createSession(createServiceContext(env), heir.userId, 'password')).access_token;
  const listed = await exports.default.fetch(new Request('http://afterword.test/api/legacy-copies', { headers: { authorization: `Bearer ${token}` } }));
  if (listed.status !== 200) throw new Error(`legacy copies: ${listed.status}`);
  const copies = (await listed.json()) as { id: string; from: string; parts: string[]; size: number | null }[];
  for (const c of copies.filter((c) => labelNames(c.from, owner.email))) {
    const res = await exports.default.fetch(
      new Request(`http://afterword.test/api/legacy-copies/${c.id}/download`, { headers: { authorization: `Bearer ${token}` } }),
    );
    const bytes = res.status === 200 ? (await res.arrayBuffer()).byteLength : -1;
    h.copies.push({ parts: c.parts, downloaded: bytes > 0 && bytes === c.size });
  }
}

export async function runSimulation(opts: SimulationOptions): Promise<SimulationRun> {
  const wallStart = performance.now();
  const rates = opts.faults ?? DEFAULT_FAULTS;
  const stepMs = opts.stepMs ?? 5 * 60_000;
  const cronEvery = opts.cronEveryMs ?? 60 * 60_000;
  const root = seeded(opts.seed);
  const plans = drawPopulation(root.fork(), { people: opts.people, days: opts.days });
  const emailOutages = drawOutages(root.fork(), rates, opts.days);
  const faultRandom = root.fork();
  // Drawn after the rest, so a seed's other draws are what they were before text messages were simulated.
  const smsOutages = drawOutages(root.fork(), rates, opts.days, rates.smsOutagesPer100Days).map((o) => ({ ...o, channel: 'sms' as const }));
  // And push's after those, for the same reason.
  const pushOutages = drawOutages(root.fork(), rates, opts.days, rates.pushOutagesPer100Days).map((o) => ({ ...o, channel: 'push' as const }));
  const outages = [...emailOutages, ...smsOutages, ...pushOutages];

  const usage = emptyUsage();
  const switches: Switches = { counting: false, faults: false };
  const alarms = new AlarmBook();
  const queues = new SimQueues(usage, switches, rates, faultRandom);
  const erasures = new ErasureWatch(switches);
  const alarmStats = { run: 0, late: 0, lost: 0, lostInLapse: 0, twice: 0, failed: 0, evicted: 0 };
  /**
   * Some of the objects called in the phase just over are evicted from memory (faults.ts, `evict`): a send one
   * started in the background may be cut off, and its next call or alarm starts a fresh instance.
   */
  const evictSome = async () => {
    // First, the alarms of objects a crash reset (instrument.ts): read from a fresh instance. One the crash
    // left unset stays as the book has it — the alarm being run, which the runtime retries, or an extra early wake.
    for (const o of alarms.takeCrashed()) {
      const at = await runInDurableObject(stubOf(o), (_object, state) => state.storage.getAlarm());
      if (at !== null) alarms.note(o.kind, o.id, at);
    }
    for (const o of alarms.takeTouched()) {
      if (!switches.faults || !faultRandom.chance(rates.evict)) continue;
      try {
        await evictDurableObject(stubOf(o));
        alarmStats.evicted += 1;
      } catch (err) {
        // The runtime evicted it already (an idle object, or one of many live at once): the fault has nothing to do.
        if (!/not currently running/.test(String(err))) throw err;
      }
    }
  };
  /** Each canary's object (its id as the alarm book keeps it) → its owner and the canary's place among theirs. */
  const canaryObjects = new Map<string, { person: number; canary: number }>();
  /** Each canary's lapses (lapseOf) whose first alarm has been drawn (alarmLostInLapse). */
  const drawnInLapse = new Set<string>();
  const emailTransport = env.EMAIL_TRANSPORT;
  const smsTransport = env.SMS_TRANSPORT;
  const callTransport = env.CALL_TRANSPORT;
  const pushTransport = env.PUSH_TRANSPORT;
  /** The provider's signed event, posted to the webhook as the sandbox's pages do (docs/decisions/billing.md). */
  const postSignedEvent = async (signed: { payload: string; signature: string }) => {
    const started = performance.now();
    const res = await exports.default.fetch(
      new Request('http://afterword.test/api/billing/webhook', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signed.signature },
        body: signed.payload,
      }),
    );
    await res.text();
    if (switches.counting) {
      usage.workerRequests += 1;
      usage.workerWallMs += performance.now() - started;
    }
    return { status: res.status, data: null };
  };
  /** Pro, monthly, bought through the sandbox checkout: the session, Pay, and the event it sends. */
  const buyPro = async (token: string) => {
    const session = await request(usage, switches, 'POST', '/api/billing/checkout', token, { plan: 'pro', cycle: 'monthly' });
    if (session.status !== 201) throw new Error(`checkout: ${session.status} ${JSON.stringify(session.data)}`);
    const signed = await request(usage, switches, 'POST', `/api/billing/sandbox/${session.data.id}/pay`, token);
    const delivered = signed.status === 200 ? await postSignedEvent(signed.data) : signed;
    if (delivered.status !== 200) throw new Error(`checkout payment: ${delivered.status}`);
  };

  /** A phone verified as people do it (the code comes by text: here the outbox). */
  const verifyPhone = async (token: string, phone: string) => {
    const asked = await request(usage, switches, 'POST', '/api/profile/phone', token, { phone });
    if (asked.status !== 200) throw new Error(`phone: ${asked.status} ${JSON.stringify(asked.data)}`);
    const sent = await env.DB.prepare("SELECT text FROM outbox_messages WHERE channel = 'sms' AND address = ? ORDER BY created_at DESC LIMIT 1")
      .bind(phone)
      .first<{ text: string }>();
    const code = /\b(\d{6})\b/.exec(sent?.text ?? '')?.[1];
    const verified = await request(usage, switches, 'POST', '/api/profile/phone/verify', token, { code });
    if (verified.status !== 200) throw new Error(`phone verify: ${verified.status} ${JSON.stringify(verified.data)}`);
    return phone;
  };

  /** A device registered for push as a browser does it (its subscription: endpoint and keys); the local push transport is the outbox, addressed to the endpoint. */
  const registerDevice = async (token: string, endpoint: string) => {
    const keys = { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) };
    const subscribed = await request(usage, switches, 'POST', '/api/notify/push/subscriptions', token, { endpoint, keys });
    if (subscribed.status !== 201) throw new Error(`push subscription: ${subscribed.status} ${JSON.stringify(subscribed.data)}`);
    return endpoint;
  };

  /** The methods they choose for their notices (`POST /api/notify/preferences`), the rest of the preferences left as they were. */
  const chooseMethods = async (token: string, methods: readonly string[]) => {
    const prefs = await request(usage, switches, 'POST', '/api/notify/preferences', token, { ...DEFAULT_NOTIFY_PREFERENCES, methods });
    if (prefs.status !== 200) throw new Error(`preferences: ${prefs.status} ${JSON.stringify(prefs.data)}`);
  };

  const baseline = await env.DB.prepare('SELECT 1').run();
  const payloadBefore = await payloadBytesByTable();
  const canariesBefore = await countCanaries();
  // On the hour, as the cron's runs then are: each hourly run is one that scans for lost timers (every tenth
  // minute, reconcile-canaries.ts scansLostTimers).
  const start = SIM_EPOCH + Math.max(0, Math.ceil((lastEnd + DAY - SIM_EPOCH) / WEEK)) * WEEK;
  if (start <= Date.now() + DAY) throw new Error('the simulation’s fake clock must start after the real one');
  const end = start + opts.days * DAY;
  lastEnd = end;
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(start);
  const uninstall = instrument(usage, switches, alarms, rates, faultRandom);
  const unqueue = queues.install();
  const quiet = [
    vi.spyOn(console, 'log').mockImplementation(() => {}),
    vi.spyOn(console, 'warn').mockImplementation(() => {}),
    vi.spyOn(console, 'error').mockImplementation(() => {}),
    vi.spyOn(console, 'info').mockImplementation(() => {}),
  ];

  /** Each person as the run drives them: their log, plus what only the driver needs. */
  const people: (PersonLog & {
    session: string;
    password: string;
    plan: PersonPlan;
    streams: CheckInStream[];
    /** How many of their planned changes of each consent are done. */
    nextConsent: Record<SimulatedConsent, number>;
    /** After a report refused for the owner's withdrawn guardian consent, the guardian tries again from this instant. */
    reportRetryAt: number;
    /** Their guardian's guardianship id (from accepting), and whether the report was made or given up. */
    guardianship: string | null;
    /** Their second guardian (quorum 2): the guardianship, whether their vote and their hold are done, and since when unsure. */
    second: { guardianship: string | null; done: boolean; unsure: number | null; holdDone: boolean; holdUnsure: number | null } | null;
    /** Or their executor's key (`webhook:death-verification`), made by the owner over the API. */
    deathKey: string | null;
    reportDone: boolean;
    /** The messages they write during the run, in order, and how many are done. */
    midRun: MessagePlan[];
    nextWrite: number;
    /** The first attempt since which a failed request (5xx) may already have been written, by kind. */
    unsureSince: Record<SimulatedConsent | 'report' | 'leave' | 'write', number | null>;
  })[] = [];
  const messages: MessageLog[] = [];
  let refused = 0;
  /** Messages planned during the run that could not be written (consent withdrawn, recipient gone). */
  let notWritten = 0;
  let signIns = 0;
  const phaseMs = { setup: 0, checkIns: 0, alarms: 0, queues: 0, cron: 0, judge: 0 };
  let mark = performance.now();
  const lap = (phase: keyof typeof phaseMs) => {
    const t = performance.now();
    phaseMs[phase] += t - mark;
    mark = t;
  };
  try {
    // The people join: accounts (seeded directly: sign-in is not what is simulated), then a canary and
    // their messages over the API, as the web app creates them.
    const joined = await Promise.all(
      plans.map(async (plan) => {
        const account = await signedInUser();
        return { plan, account };
      }),
    );
    await inPool(joined, async ({ plan, account }) => {
      if (plan.subscription) await buyPro(account.token);
      else await env.DB.prepare("UPDATE users SET plan = 'pro' WHERE id = ?").bind(account.id).run();
      const canaries: CanaryLog[] = [];
      for (const { name, intervalMs } of [{ name: 'me', intervalMs: plan.intervalMs }, ...plan.more]) {
        const canary = await request(usage, switches, 'POST', '/api/canary/create', account.token, { interval_seconds: intervalMs / 1000, name });
        if (canary.status !== 201) throw new Error(`canary create: ${canary.status} ${JSON.stringify(canary.data)}`);
        canaries.push({
          canaryId: canary.data.id,
          token: canary.data.token,
          name,
          intervalMs,
          createdAt: Date.parse(canary.data.last_check_in),
          checkIns: [],
          warnings: [],
          reminders: [],
        });
      }
      // A dead-man's switch, set on Canary Status as people do.
      const deadman = plan.deadmanHours ? await request(usage, switches, 'POST', '/api/deadman/setup', account.token, { hours: plan.deadmanHours }) : null;
      if (deadman && deadman.status !== 200) throw new Error(`dead-man setup: ${deadman.status} ${JSON.stringify(deadman.data)}`);
      const phone = plan.phone ? await verifyPhone(account.token, `+1${200 + (opts.seed % 700)}${String(plan.index).padStart(7, '0')}`) : null;
      const push = plan.push ? await registerDevice(account.token, `https://push.example.test/sim-${opts.seed}/${plan.index}`) : null;
      // Text beside email with a phone, push beside them with a device — or push alone; the defaults for the others.
      if (phone || push) await chooseMethods(account.token, plan.push === 'alone' ? ['push'] : ['email', ...(phone ? ['sms'] : []), ...(push ? ['push'] : [])]);
      for (const [i, c] of canaries.entries()) canaryObjects.set(env.CANARY_CLOCK.idFromName(c.canaryId).toString(), { person: plan.index, canary: i });
      people[plan.index] = {
        index: plan.index,
        userId: account.id,
        email: account.email,
        via: plan.via,
        phone,
        push,
        canaries,
        checkIns: [],
        diesAt: plan.diesAt,
        absences: plan.absences,
        consentChanges: [],
        guardianConsentChanges: [],
        askedAbout: [],
        reportAttempts: [],
        deletionRequestedAt: null,
        deathVotes: [],
        holds: [],
        quorum: plan.guardian?.second ? 2 : 1,
        reporter: plan.guardian?.via ?? null,
        subscription: plan.subscription ? { cancelledAt: null, planAtEnd: 'pro' } : null,
        deadman: deadman
          ? { hours: plan.deadmanHours!, setAt: Date.parse(deadman.data.deadline) - plan.deadmanHours! * 3_600_000, warnings: [], erasedAt: null }
          : null,
        heirs: plan.heirs.map((h) => ({ person: h.person, parts: [...h.parts], copies: [], told: [] })),
        quietHours: {
          ...DEFAULT_NOTIFY_PREFERENCES.quiet_hours,
          timeZone: (await env.DB.prepare('SELECT time_zone FROM users WHERE id = ?').bind(account.id).first<{ time_zone: string }>())!.time_zone,
        },
        session: account.token,
        password: account.password,
        plan,
        // A token person pings each canary's token on its own schedule; the Heartbeat checks in on every canary at once.
        streams:
          plan.via === 'token'
            ? [{ canaries: [0], times: plan.checkIns, next: 0 }, ...plan.more.map((c, i) => ({ canaries: [i + 1], times: c.checkIns, next: 0 }))]
            : [{ canaries: canaries.map((_, i) => i), times: plan.checkIns, next: 0 }],
        nextConsent: { messages: 0, guardian: 0 },
        reportRetryAt: 0,
        guardianship: null,
        second: plan.guardian?.second
          ? { guardianship: null, done: false, unsure: null, holdDone: plan.guardian.second.holdDays === null, holdUnsure: null }
          : null,
        deathKey: null,
        reportDone: false,
        midRun: plan.messages.filter((m) => m.writtenAtMs !== undefined).sort((a, b) => a.writtenAtMs! - b.writtenAtMs!),
        nextWrite: 0,
        unsureSince: { messages: null, guardian: null, report: null, leave: null, write: null },
      };
    });
    // Guardians, as people make them: the owner invites over the API, the invitation goes out by email (the
    // outbox), and the guardian accepts with the link's token.
    const guarded = people.filter((p) => p.plan.guardian?.via === 'guardian');
    /** Each owner's guardians: the first, and the second of those with a quorum of 2. */
    const guardiansOf = (p: (typeof people)[number]) => [p.plan.guardian!.by, ...(p.plan.guardian!.second ? [p.plan.guardian!.second.by] : [])];
    await inPool(guarded, async (p) => {
      for (const by of guardiansOf(p)) {
        const assigned = await request(usage, switches, 'POST', '/api/guardian/assign', p.session, { email: people[by]!.email, consent: true });
        if (assigned.status !== 201) throw new Error(`guardian assign: ${assigned.status} ${JSON.stringify(assigned.data)}`);
      }
      if (p.quorum > 1) {
        const set = await request(usage, switches, 'PUT', '/api/guardian/settings', p.session, { quorum: p.quorum });
        if (set.status !== 200) throw new Error(`guardian settings: ${set.status} ${JSON.stringify(set.data)}`);
      }
    });
    await queues.deliverDue(start);
    for (const [p, by] of guarded.flatMap((p) => guardiansOf(p).map((by) => [p, by] as const))) {
      const g = people[by]!;
      const token = await invitationToken(g.email, p.email, 'asks you to be their guardian', 'guardian');
      const accepted = await request(usage, switches, 'POST', '/api/guardian/accept', g.session, { token });
      if (accepted.status !== 200) throw new Error(`guardian accept: ${accepted.status} ${JSON.stringify(accepted.data)}`);
      if (by === p.plan.guardian!.by) p.guardianship = accepted.data.id;
      else p.second!.guardianship = accepted.data.id;
    }
    // Heirs, as people name them beside their dead-man's switch: each must be a contact first — the owner invites them
    // by email (the outbox), the heir accepts with the link's token — then the owner sets the list with each one's parts.
    const leavingCopies = people.filter((p) => p.plan.heirs.length);
    await inPool(leavingCopies, async (p) => {
      for (const h of p.plan.heirs) {
        const added = await request(usage, switches, 'POST', '/api/contacts', p.session, { email: people[h.person]!.email });
        if (added.status !== 201) throw new Error(`contact add: ${added.status} ${JSON.stringify(added.data)}`);
      }
    });
    await queues.deliverDue(start);
    for (const [p, h] of leavingCopies.flatMap((p) => p.plan.heirs.map((h) => [p, h] as const))) {
      const heir = people[h.person]!;
      const token = await invitationToken(heir.email, p.email, 'wants to add you as a contact', 'contacts');
      const accepted = await request(usage, switches, 'POST', '/api/contacts/accept', heir.session, { token });
      if (accepted.status !== 200) throw new Error(`contact accept: ${accepted.status} ${JSON.stringify(accepted.data)}`);
    }
    await inPool(leavingCopies, async (p) => {
      const heirs = p.plan.heirs.map((h) => ({ recipient_user_id: people[h.person]!.userId, parts: h.parts }));
      const set = await request(usage, switches, 'POST', '/api/deadman/heirs', p.session, { heirs });
      if (set.status !== 200) throw new Error(`heirs: ${set.status} ${JSON.stringify(set.data)}`);
    });
    // Executors: the owner makes a key with the death-verification scope and hands it over (the key is in the answer only).
    await inPool(
      people.filter((p) => p.plan.guardian?.via === 'key'),
      async (p) => {
        const made = await request(usage, switches, 'POST', '/api/developer/keys', p.session, { name: 'Executor', scopes: ['webhook:death-verification'] });
        if (made.status !== 201) throw new Error(`executor key: ${made.status} ${JSON.stringify(made.data)}`);
        p.deathKey = made.data.key;
      },
    );
    const written: MessageLog[][] = people.map(() => []);
    await inPool(people, async (p) => {
      for (const m of p.plan.messages.filter((m) => m.writtenAtMs === undefined)) {
        const send: Send = (method, path, json) => request(usage, switches, method, path, p.session, json);
        const created = await writeMessage(p, m, start, send, people, start);
        if (created.status !== 201) throw new Error(`message create: ${created.status} ${JSON.stringify(created.data)}`);
        written[p.index]!.push(created.log!);
      }
    });
    messages.push(...written.flat());
    // Vault items, as the Vault page gives them: keys for the owner and the recipient, the file sealed for both
    // in the browser and uploaded, then given under its condition.
    const withKeys = new Set<number>();
    const keysFor = async (p: (typeof people)[number]) => {
      if (withKeys.has(p.index)) return;
      withKeys.add(p.index);
      const made = await request(usage, switches, 'POST', '/api/trpc/keys.create', p.session, keyBundle());
      if (made.status !== 200) throw new Error(`keys: ${made.status} ${JSON.stringify(made.data)}`);
    };
    for (const p of people.filter((p) => p.plan.vault)) {
      const v = p.plan.vault!;
      const to = people[v.recipient]!;
      await keysFor(p);
      await keysFor(to);
      messages.push(await giveVaultItem(p, v, to, start, (method, path, body) => request(usage, switches, method, path, p.session, body)));
    }
    await queues.deliverDue(start);
    lap('setup');

    switches.counting = true;
    switches.faults = true;
    const dead = new Set<number>();
    /** People who asked to delete their account: they do nothing more. */
    const gone = new Set<number>();
    const active = (p: (typeof people)[number]) => !dead.has(p.index) && !gone.has(p.index) && !p.deadman?.erasedAt;
    /** A signed-in request; a session that ran out (SESSION_TTL_SECONDS) means signing in again first, as people do. */
    const signedIn = async (p: (typeof people)[number], method: string, path: string, json: unknown) => {
      const res = await request(usage, switches, method, path, p.session, json);
      if (res.status !== 401) return res;
      try {
        p.session = (await createSession(createServiceContext(env), p.userId, 'password')).access_token;
      } catch {
        // The sign-in itself failed (a D1 fault): they try again at the next step.
        return res;
      }
      signIns += 1;
      return request(usage, switches, method, path, p.session, json);
    };
    /** A second guardian who means to put the confirmation on hold, once both guardians have reported. */
    const holdPending = (p: (typeof people)[number]) => p.second !== null && !p.second.holdDone && p.deathVotes.length >= p.quorum;
    /** An accepted vote on the report of p's death (whether it opened a veto window is the oracle's to say). */
    const vote = (p: (typeof people)[number], at: number) => p.deathVotes.push(at);
    let reportedDay = 0;
    // Steps on a fixed grid, skipping those where nothing is due (no check-in, alarm, queue message or cron run).
    const nextStep = (now: number) => {
      const candidates = [
        Math.min(...people.filter(active).flatMap((p) => p.streams.filter((c) => c.next < c.times.length).map((c) => start + c.times[c.next]!))),
        ...SIMULATED_CONSENTS.map((kind) => Math.min(...people.filter(active).map((p) => start + (pendingConsent(p, kind)?.at ?? Number.POSITIVE_INFINITY)))),
        Math.min(...people.filter((p) => active(p) && p.plan.leavesAt !== null).map((p) => start + p.plan.leavesAt!)),
        Math.min(
          ...people.filter((p) => (p.guardianship || p.deathKey) && !p.reportDone).map((p) => Math.max(start + p.plan.guardian!.reportFrom, p.reportRetryAt)),
        ),
        Math.min(...people.filter((p) => p.second?.guardianship && !p.second.done).map((p) => start + p.plan.guardian!.second!.reportFrom)),
        people.some(holdPending) ? now : Number.POSITIVE_INFINITY,
        Math.min(...people.filter((p) => active(p) && p.nextWrite < p.midRun.length).map((p) => start + p.midRun[p.nextWrite]!.writtenAtMs!)),
        Math.min(
          ...people
            .filter((p) => active(p) && p.plan.subscription?.cancelsAt != null && !p.subscription!.cancelledAt)
            .map((p) => start + p.plan.subscription!.cancelsAt!),
        ),
        alarms.nextAt(),
        queues.nextDue(),
        start + Math.floor((now - start) / cronEvery + 1) * cronEvery,
      ];
      const t = Math.min(...candidates);
      return Math.max(now + stepMs, start + Math.ceil((t - start) / stepMs) * stepMs);
    };
    for (let now = start + stepMs; now <= end; now = nextStep(now)) {
      vi.setSystemTime(now);
      const down = (list: typeof outages) => list.some((o) => now >= o.from + start && now < o.to + start);
      // A misconfigured transport answers every send with a retryable failure: the provider is down. (Twilio with no
      // account configured is one for text messages.)
      (env as { EMAIL_TRANSPORT?: string }).EMAIL_TRANSPORT = down(emailOutages) ? 'down' : emailTransport;
      (env as { SMS_TRANSPORT?: string }).SMS_TRANSPORT = down(smsOutages) ? 'twilio' : smsTransport;
      // Calls go through the same provider as texts: its outage holds both.
      (env as { CALL_TRANSPORT?: string }).CALL_TRANSPORT = down(smsOutages) ? 'twilio' : callTransport;
      // Web Push with no VAPID keys configured answers every send with a retryable failure: the push service is down.
      (env as { PUSH_TRANSPORT?: string }).PUSH_TRANSPORT = down(pushOutages) ? 'webpush' : pushTransport;

      // People check in when they mean to; a refused attempt is tried again at the next step.
      const due = people
        .filter(active)
        .flatMap((p) => p.streams.filter((c) => c.next < c.times.length && start + c.times[c.next]! <= now).map((stream) => ({ p, stream })));
      await inPool(due, async ({ p, stream }) => {
        const res =
          p.via === 'token'
            ? await request(usage, switches, 'POST', `/api/ping/${encodeURIComponent(p.canaries[stream.canaries[0]!]!.token)}`, null)
            : await signedIn(p, 'POST', '/api/canary/checkin', {});
        if (res.status !== 200) {
          refused += 1;
          return;
        }
        p.checkIns.push(now);
        for (const i of stream.canaries) p.canaries[i]!.checkIns.push(now);
        while (stream.next < stream.times.length && start + stream.times[stream.next]! <= now) stream.next += 1;
      });
      for (const p of people) p.checkIns.sort((a, b) => a - b);
      // Some withdraw a consent and later allow it again (Data Consents): their messages consent, or their guardian
      // consent before their death is reported. A refused attempt is tried again at the next step.
      for (const kind of SIMULATED_CONSENTS) {
        const changing = people.filter((p) => active(p) && start + (pendingConsent(p, kind)?.at ?? Number.POSITIVE_INFINITY) <= now);
        await inPool(changing, async (p) => {
          const change = pendingConsent(p, kind)!;
          const res = await signedIn(p, 'POST', `/api/legal/consent/${kind}`, { consent: change.consent });
          if (res.status !== 200) {
            refused += 1;
            p.unsureSince[kind] = res.status >= 500 ? (p.unsureSince[kind] ?? now) : null;
            return;
          }
          const firstTry = p.unsureSince[kind] ?? now;
          // Allowing messages again may have been written by an earlier attempt whose answer was lost (an injected
          // fault): logged from that attempt, so the engine can only be later than the log, never earlier. A
          // withdrawal is logged when accepted: a pause that began a step earlier is within the oracle's bound.
          if (kind === 'messages') p.consentChanges.push({ at: change.consent ? firstTry : now, consent: change.consent });
          // The guardian consent's log keeps both: the oracle judges nothing in between.
          else p.guardianConsentChanges.push({ at: now, since: firstTry, consent: change.consent });
          p.unsureSince[kind] = null;
          p.nextConsent[kind] += 1;
        });
      }
      // Guardians report a death (after a real one, or during an owner's lapse); before the owner has missed a
      // check-in the report is refused (409) and they try again at the next step, until they would have heard back.
      // An executor reports with the owner's key: no miss needed, so only a failure (5xx) is tried again.
      const reporting = people.filter(
        (p) => (p.guardianship || p.deathKey) && !p.reportDone && start + p.plan.guardian!.reportFrom <= now && p.reportRetryAt <= now,
      );
      await inPool(reporting, async (p) => {
        // An owner whose dead-man's switch erased their account has no one left to report.
        if (now >= start + p.plan.guardian!.reportUntil || p.deadman?.erasedAt) {
          p.reportDone = true;
          return;
        }
        const g = people[p.plan.guardian!.by]!;
        const res = p.deathKey
          ? await request(usage, switches, 'POST', '/api/death-verification/report', p.deathKey, {})
          : await signedIn(g, 'POST', `/api/guardian/${p.guardianship}/answer`, { answer: 'report_death' });
        p.reportAttempts.push({ at: now, by: p.deathKey ? 'key' : 'guardian', status: res.status });
        if (p.deathKey && res.status !== 202 && res.status < 500) throw new Error(`executor's report: ${res.status} ${JSON.stringify(res.data)}`);
        if (res.status !== 200 && res.status !== 202) {
          refused += 1;
          // Refused for the owner's withdrawn consent: the guardian asks again some hours later, not every step.
          if (res.status === 403) p.reportRetryAt = now + 6 * 3_600_000;
          // A failure (5xx) may have been written with its answer lost; a refusal (409: no miss yet) was not.
          p.unsureSince.report = res.status >= 500 ? (p.unsureSince.report ?? now) : null;
          return;
        }
        // From the earliest attempt that may have been written: the veto window cannot have opened before it.
        vote(p, p.unsureSince.report ?? now);
        p.reportDone = true;
      });
      // Second guardians (a quorum of 2) report too; the one whose vote reaches the quorum opens the window, and some
      // then put the confirmation on hold.
      const seconds = people.filter((p) => p.second?.guardianship && !p.second.done && start + p.plan.guardian!.second!.reportFrom <= now);
      await inPool(seconds, async (p) => {
        const second = p.second!;
        if (now >= start + p.plan.guardian!.second!.reportUntil || p.deadman?.erasedAt) {
          second.done = true;
          return;
        }
        const res = await signedIn(people[p.plan.guardian!.second!.by]!, 'POST', `/api/guardian/${second.guardianship}/answer`, { answer: 'report_death' });
        p.reportAttempts.push({ at: now, by: 'second', status: res.status });
        if (res.status !== 200) {
          refused += 1;
          second.unsure = res.status >= 500 ? (second.unsure ?? now) : null;
          return;
        }
        vote(p, second.unsure ?? now);
        second.done = true;
      });
      const holding = people.filter(holdPending);
      await inPool(holding, async (p) => {
        const second = p.second!;
        const days = p.plan.guardian!.second!.holdDays!;
        const res = await signedIn(people[p.plan.guardian!.second!.by]!, 'POST', `/api/guardian/${second.guardianship}/answer`, { answer: 'hold', days });
        if (res.status >= 500) {
          refused += 1;
          second.holdUnsure ??= now;
          return;
        }
        // A hold the service refused (409: the death is already confirmed) is not placed.
        if (res.status === 200) {
          // From the earliest attempt that may have placed it (the oracle's hold can only end earlier than the engine's).
          const at = second.holdUnsure ?? now;
          p.holds.push({ at, until: at + days * DAY });
        }
        second.holdDone = true;
      });
      // Messages written during the run. Refused for good (403: their messages consent is withdrawn; 404: the
      // recipient left) means they do not write it; anything else is tried again at the next step.
      const writing = people.filter((p) => active(p) && p.nextWrite < p.midRun.length && start + p.midRun[p.nextWrite]!.writtenAtMs! <= now);
      await inPool(writing, async (p) => {
        const m = p.midRun[p.nextWrite]!;
        // Logged as written from the earliest attempt that may have written it: a create whose answer was lost (an
        // injected fault) wrote the message then, and the retry's key answers with that one — armed at once when
        // misses already stood. The engine can then only be later than the log, never earlier (found by CI, seed 11:
        // a release 5 minutes "before its time").
        const firstTry = p.unsureSince.write ?? now;
        const created = await writeMessage(p, m, firstTry, (method, path, json) => signedIn(p, method, path, json), people, start);
        if (created.status === 201) messages.push(created.log!);
        else if (created.status === 403 || created.status === 404) notWritten += 1;
        else {
          refused += 1;
          if (created.status >= 500) p.unsureSince.write = firstTry;
          return;
        }
        p.unsureSince.write = null;
        p.nextWrite += 1;
      });
      // Some cancel their subscription in the (sandbox) portal; the page posts the provider's signed event to the webhook.
      const cancelling = people.filter(
        (p) => active(p) && p.plan.subscription?.cancelsAt != null && !p.subscription!.cancelledAt && start + p.plan.subscription.cancelsAt <= now,
      );
      await inPool(cancelling, async (p) => {
        const signed = await signedIn(p, 'POST', '/api/billing/sandbox-portal/cancel', {});
        const delivered = signed.status === 200 ? await postSignedEvent(signed.data) : signed;
        if (delivered.status !== 200) {
          refused += 1;
          return;
        }
        p.subscription!.cancelledAt = now;
      });
      // Some leave: they ask to delete their account (Settings → Delete account), erased seven days later by the cron.
      const leaving = people.filter((p) => active(p) && p.plan.leavesAt !== null && start + p.plan.leavesAt <= now);
      await inPool(leaving, async (p) => {
        const res = await signedIn(p, 'POST', '/api/account/delete', { password: p.password });
        // 409: an earlier attempt that failed (5xx) was written although its answer was lost; it was scheduled then.
        if (res.status !== 201 && res.status !== 409) {
          refused += 1;
          p.unsureSince.leave = res.status >= 500 ? (p.unsureSince.leave ?? now) : null;
          return;
        }
        p.deletionRequestedAt = res.status === 201 ? now : (p.unsureSince.leave ?? now);
        gone.add(p.index);
      });
      for (const p of people) if (p.diesAt !== null && now >= start + p.diesAt) dead.add(p.index);
      // The Worker queues the check-ins' projections 50 ms of real time later (check-in-sender.ts), at whatever
      // the simulated time is then: a projection a little late, as on Cloudflare. Not awaited here, so a step
      // does not wait for real time.
      lap('checkIns');
      await evictSome();

      // Alarms: late, lost, twice — and retried by the runtime when they throw.
      const ring = alarms.takeDue(now);
      const toRun: { a: ArmedAlarm; twice: boolean }[] = [];
      for (const a of ring) {
        const tag = a as ArmedAlarm & { lateDone?: boolean };
        const owner = a.kind === 'canary' ? canaryObjects.get(a.id) : undefined;
        const lapse = owner ? lapseOf(people[owner.person]!, owner.canary, dead, now) : null;
        if (lapse && !drawnInLapse.has(`${a.id} ${lapse}`)) {
          drawnInLapse.add(`${a.id} ${lapse}`);
          if (faultRandom.chance(rates.alarmLostInLapse)) {
            alarmStats.lostInLapse += 1;
            await loseAlarm(a);
            continue;
          }
        }
        if (!tag.lateDone && faultRandom.chance(rates.alarmLost)) {
          alarmStats.lost += 1;
          await loseAlarm(a);
          continue;
        }
        if (!tag.lateDone && faultRandom.chance(rates.alarmLate)) {
          alarmStats.late += 1;
          alarms.armed.set(
            `${a.kind}:${a.id}`,
            Object.assign({ ...a, at: now + Math.round(faultRandom.between(1, rates.alarmLateMaxMs)) }, { lateDone: true }),
          );
          continue;
        }
        toRun.push({ a, twice: faultRandom.chance(rates.alarmTwice) });
      }
      await inPool(toRun, async ({ a, twice }) => {
        for (let k = 0; k < (twice ? 2 : 1); k++) {
          try {
            alarmStats.run += 1;
            if (k) alarmStats.twice += 1;
            await runDurableObjectAlarm(stubOf(a));
          } catch {
            alarmStats.failed += 1;
            // The runtime retries a failed alarm (with backoff; a minute here).
            if (!alarms.armed.has(`${a.kind}:${a.id}`)) alarms.note(a.kind, a.id, now + 60_000);
          }
        }
      });

      lap('alarms');
      await evictSome();
      await queues.deliverDue(now);
      lap('queues');
      await evictSome();
      if ((now - start) % cronEvery === 0) {
        await erasures.beforeCron(people, messages, now);
        const ctx = createExecutionContext();
        const started = performance.now();
        await worker.scheduled({ cron: '* * * * *', scheduledTime: now, noRetry() {} } as ScheduledController, env, ctx);
        await waitOnExecutionContext(ctx).catch(() => {});
        usage.cronRuns += 1;
        usage.cronWallMs += performance.now() - started;
        await erasures.afterCron(people, now);
        lap('cron');
        await queues.deliverDue(now);
        lap('queues');
      }
      // Halfway, what is stored (uncounted: the run's own look): with the end's, the rate storage grows at (costs.ts storageAtAge).
      if (!usage.storedAtHalf && opts.days >= 2 && now >= start + Math.floor(opts.days / 2) * DAY) {
        // The run's own reads: no fault is injected into them (an injected D1 error here failed the whole test, on
        // CI, 2026-11-30: "D1_ERROR: simulated failure (not applied)").
        usage.storedAtHalf = await quietly(switches, async () => ({
          day: Math.floor(opts.days / 2),
          d1Bytes: Math.max(0, (await d1Size()) - d1SizeOf(baseline) - (await outboxBytesSince(start))),
          doBytes: Object.values(usage.doBytesByObject).reduce((a, b) => a + b, 0),
        }));
      }
      if (opts.progress && Math.floor((now - start) / DAY) > reportedDay) {
        reportedDay = Math.floor((now - start) / DAY);
        opts.progress(
          `  day ${reportedDay}: ${Math.round(performance.now() - wallStart)} ms ${JSON.stringify(Object.fromEntries(Object.entries(phaseMs).map(([k, v]) => [k, Math.round(v)])))}`,
        );
      }
    }
  } finally {
    switches.counting = false;
    switches.faults = false;
    (env as { EMAIL_TRANSPORT?: string }).EMAIL_TRANSPORT = emailTransport;
    (env as { SMS_TRANSPORT?: string }).SMS_TRANSPORT = smsTransport;
    (env as { CALL_TRANSPORT?: string }).CALL_TRANSPORT = callTransport;
    (env as { PUSH_TRANSPORT?: string }).PUSH_TRANSPORT = pushTransport;
    unqueue();
    uninstall();
    for (const q of quiet) q.mockRestore();
  }

  opts.progress?.('  the run is over: reading what reached people');
  // What reached people, read from their mailboxes and inboxes. (Check-in projections the Worker still holds
  // are not awaited: a promise of an ended request's waitUntil can hang when awaited from the test.)
  const byAddress = new Map(
    people.flatMap((p) => [[p.email, p] as const, ...(p.phone ? [[p.phone, p] as const] : []), ...(p.push ? [[p.push, p] as const] : [])]),
  );
  const { results: mail } = await env.DB.prepare(
    `SELECT id, address, created_at, subject, idempotency_key FROM outbox_messages
     WHERE channel IN ('email', 'sms', 'push') AND idempotency_key LIKE 'notice:%' ORDER BY created_at`,
  ).all<MailRow>();
  const mailOf = new Map<number, MailRow[]>();
  for (const row of mail) {
    const p = byAddress.get(row.address);
    if (p) mailOf.set(p.index, [...(mailOf.get(p.index) ?? []), row]);
  }
  // A warning names its canary ("Check in before …: "me"", "Your canary "backup" passed its deadline …"): that is whose it is.
  let warningsFirstByPush = 0;
  const noticesByPush = mail.filter((row) => byAddress.get(row.address)?.push === row.address).length;
  const warned = (subject: string) => subject.startsWith('Check in before') || /^Your canary.*passed its deadline/.test(subject);
  for (const p of people) {
    // An erased account took its mailbox with it: what reached them was read before (erasure-watch.ts); a notice read
    // both then and now counts once.
    const rows = [...(mailOf.get(p.index) ?? []), ...erasures.mailOf(p.index)];
    // A notice reached them when the first of its channels (email, text) took it.
    for (const row of firstOfEachNotice(rows)) {
      if (warned(row.subject)) {
        const name = /"([^"]+)"/.exec(row.subject)?.[1];
        const canary = p.canaries.find((c) => c.name === name);
        if (!canary) throw new Error(`a warning for no canary of person ${p.index}: ${row.subject}`);
        canary.warnings.push(row.created_at);
        if (row.subject.startsWith('Check in before')) canary.reminders.push(row.created_at);
        if (row.address === p.push) warningsFirstByPush += 1;
      } else if (row.subject === DEADMAN_WARNING_SUBJECT) p.deadman?.warnings.push(row.created_at);
    }
  }
  // The guardians' questions about the owners they guard ("Have you heard from …?"), read from the guardians'
  // mailboxes. The question names its owner (their display name, or their email when they have none: the run's
  // people set none), so a guardian of several owners' questions are told apart too.
  const guardiansOf = new Map<number, number[]>();
  for (const p of people) {
    const g = p.plan.guardian;
    for (const by of [...(g?.via === 'guardian' ? [g.by] : []), ...(p.second ? [g!.second!.by] : [])])
      guardiansOf.set(by, [...(guardiansOf.get(by) ?? []), p.index]);
  }
  const { results: asks } = await env.DB.prepare(
    `SELECT address, subject, created_at FROM outbox_messages
     WHERE channel = 'email' AND idempotency_key LIKE 'guardian-notice:%' AND subject LIKE 'Have you heard from %' ORDER BY created_at`,
  ).all<{ address: string; subject: string; created_at: number }>();
  for (const ask of asks) {
    const guardian = byAddress.get(ask.address);
    const owner = byAddress.get(/^Have you heard from (.+)\?$/.exec(ask.subject)?.[1] ?? '');
    if (!guardian || !owner) continue;
    if (!guardiansOf.get(guardian.index)?.includes(owner.index))
      throw new Error(`person ${guardian.index} was asked about person ${owner.index}, whom they do not guard: ${ask.subject}`);
    owner.askedAbout.push(ask.created_at);
  }
  for (const p of people)
    for (const h of p.heirs) await readWhatReachedHeir(p, h, people[h.person]!, [...(mailOf.get(h.person) ?? []), ...erasures.mailOf(h.person)]);
  const ids = messages.map((m) => m.id);
  const released = new Map<string, { released_at: number | null; ok: number }>();
  for (let i = 0; i < ids.length; i += 50) {
    const chunk = ids.slice(i, i + 50);
    const { results } = await env.DB.prepare(
      `SELECT m.id, m.released_at,
              (SELECT count(*) FROM delivery_log l WHERE l.message_id = m.id AND l.channel = m.delivery_method AND l.success = 1) AS ok
       FROM messages m WHERE m.id IN (${chunk.map(() => '?').join(',')})`,
    )
      .bind(...chunk)
      .all<{ id: string; released_at: number | null; ok: number }>();
    for (const r of results) released.set(r.id, r);
  }
  for (const m of messages) {
    // A message of a sender who was erased went with them: its release as read before.
    const r = released.get(m.id) ?? erasures.releaseOf(m.id);
    m.releasedAt = r?.released_at ?? null;
    m.channelDeliveries = r?.ok ?? 0;
    if (m.yearly) m.yearly.nextYears = released.has(m.id) ? await nextYearsOf(m.id) : erasures.nextYearsOf(m.id);
  }
  const unwrittenMessages = await messagesNoOneWrote(
    people.map((p) => p.userId),
    new Set(ids),
  );
  for (const p of people.filter((p) => p.subscription)) {
    p.subscription!.planAtEnd = (await env.DB.prepare('SELECT plan FROM users WHERE id = ?').bind(p.userId).first<{ plan: string }>())?.plan ?? 'erased';
  }
  usage.canaryRows = Math.max(0, (await countCanaries()) - canariesBefore);
  usage.outboxBytes = await outboxBytesSince(start);
  for (const [table, bytes] of Object.entries(await payloadBytesByTable())) {
    const grew = bytes - (payloadBefore[table] ?? 0);
    if (grew > 0) usage.d1PayloadBytesByTable[table] = grew;
  }
  // What this run's people added to the database (a file's earlier runs and the empty schema excluded).
  usage.d1Bytes = Math.max(0, (await d1Size()) - d1SizeOf(baseline));

  opts.progress?.("  read; putting this run's people to rest");
  // This run's people go quiet, so a later run in the same file starts from a world with nothing due.
  await env.DB.batch([
    env.DB.prepare('UPDATE canaries SET active = 0'),
    env.DB.prepare("UPDATE messages SET status = 'cancelled' WHERE status IN ('scheduled', 'armed', 'releasing')"),
    env.DB.prepare("UPDATE deliveries SET status = 'failed' WHERE status IN ('pending', 'retrying', 'sending')"),
    env.DB.prepare("UPDATE owner_notices SET status = 'skipped' WHERE status = 'pending'"),
    env.DB.prepare('DELETE FROM deadman_switches'),
    env.DB.prepare("UPDATE scheduled_deletions SET status = 'cancelled' WHERE status = 'scheduled' AND reason = 'deadman'"),
  ]);
  vi.useRealTimers();

  const log: BehaviourLog = {
    seed: opts.seed,
    start,
    end,
    people: people.map(
      ({
        session: _s,
        password: _w,
        plan: _p,
        streams: _n,
        nextConsent: _c,
        reportRetryAt: _rr,
        guardianship: _g,
        second: _s2,
        deathKey: _k,
        reportDone: _r,
        midRun: _m,
        nextWrite: _x,
        unsureSince: _u,
        ...p
      }) => p,
    ),
    messages,
    outages: outages.map((o) => ({ ...o, from: o.from + start, to: o.to + start })),
  };
  return {
    log,
    usage,
    userDays: opts.people * opts.days,
    queueStats: queues.stats,
    alarmStats,
    checkInAttemptsRefused: refused,
    messagesNotWritten: notWritten,
    unwrittenMessages,
    signIns,
    noticesByPush,
    warningsFirstByPush,
    pushAlone: plans.filter((p) => p.push === 'alone').length,
    wallMs: performance.now() - wallStart,
    phaseMs,
    engineBeforeErasureOf: (person: number) => erasures.engineBeforeErasureOf(person),
  };
}

/** The messages of `senders` (vault items apart: their yearly copies are the engine's) whose ids `written` lacks. */
async function messagesNoOneWrote(senders: readonly string[], written: ReadonlySet<string>) {
  const { results } = await env.DB.prepare('SELECT id, sender_id FROM messages WHERE vault_item_id IS NULL AND sender_id IN (SELECT value FROM json_each(?))')
    .bind(JSON.stringify(senders))
    .all<{ id: string; sender_id: string }>();
  return results.filter((r) => !written.has(r.id)).map((r) => ({ sender: senders.indexOf(r.sender_id), id: r.id }));
}

/** D1's size in bytes, as a round trip's meta tells it. */
const d1SizeOf = (result: { meta: unknown }) => (result.meta as { size_after?: number }).size_after ?? 0;
const d1Size = async () => d1SizeOf(await env.DB.prepare('SELECT 1').run());

/**
 * The bytes of the local outbox's rows written since `since`, their index entries included but not the pages' own
 * overhead: on Cloudflare a provider sends each email and nothing stores it (costs.ts `outboxBytes`).
 */
async function outboxBytesSince(since: number): Promise<number> {
  const row = await env.DB.prepare(
    `SELECT sum(2 * length(id) + length(channel) + length(address) + length(subject) + length(text) + coalesce(length(link), 0)
                + 2 * length(idempotency_key) + 2 * coalesce(length(recipient_user_id), 0) + 3 * 8) AS bytes
     FROM outbox_messages WHERE created_at >= ?`,
  )
    .bind(since)
    .first<{ bytes: number | null }>();
  return row?.bytes ?? 0;
}
