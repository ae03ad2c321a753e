import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { hashSecret } from '../../lib/secrets';

/**
 * Failed-login limits (docs/decisions/sessions-and-throttling.md). Fixed windows in
 * D1 (`rate_limits`), so every isolate sees one count.
 * - pair: one account from one address. The guesser only ever locks themselves out.
 * - address: one address over many accounts (spraying).
 * - email: one account from every unknown address together (distributed guessing), far higher.
 * An address the account has signed in from before (a known pair) is held to the pair limit only, so
 * an attack on someone's email from elsewhere, or from behind the same NAT, never locks them out.
 */
export const LOGIN_LIMITS = {
  pair: { max: 5, windowMs: 15 * 60_000 },
  address: { max: 30, windowMs: 15 * 60_000 },
  email: { max: 50, windowMs: 60 * 60_000 },
} as const;

/** How long a successful sign-in makes its address "known" to the account. */
export const KNOWN_ADDRESS_TTL_MS = 90 * 24 * 60 * 60_000;

type LimitName = keyof typeof LOGIN_LIMITS;

export interface LoginThrottleKeys {
  pair: string;
  address: string;
  email: string;
  known: string;
  /** Every pair key of this account (a password reset lifts them all). */
  pairPrefix: string;
}

export async function loginThrottleKeys(email: string, address: string): Promise<LoginThrottleKeys> {
  // The email is hashed so the table holds no addresses of people who never registered.
  const e = await hashSecret(email);
  return {
    pair: `login:pair:${e}:${address}`,
    address: `login:ip:${address}`,
    email: `login:email:${e}`,
    known: `login:known:${e}:${address}`,
    pairPrefix: `login:pair:${e}:`,
  };
}

/** The slots one attempt took; given back (all but the pair's) when the password was right. */
export interface LoginReservation {
  keys: LoginThrottleKeys;
  taken: LimitName[];
}

/** How long an attempt waits for attempts in flight to free the slots it needs, before it is refused. */
export const WAIT_FOR_SLOTS_MS = 20_000;
const RETRY_EVERY_MS = 100;

/**
 * Takes one attempt slot under every limit that applies, atomically, BEFORE the password is verified:
 * a slot is held by a failure or by an attempt still being checked, so N parallel attempts verify at most
 * the limit, whatever their timing. Only failures refuse (429 with Retry-After, nothing taken): when the
 * slots are held by attempts in flight — forty colleagues signing in from one office address at once — the
 * attempt waits for them to finish (each gives its slot back when its password was right) and then goes
 * on, up to WAIT_FOR_SLOTS_MS.
 */
export async function reserveLoginAttempt(ctx: ServiceContext, keys: LoginThrottleKeys): Promise<LoginReservation> {
  const started = Date.now();
  for (;;) {
    const outcome = await tryReserve(ctx, keys);
    if (outcome.reserved) return outcome.reserved;
    if (outcome.refusal || Date.now() - started >= WAIT_FOR_SLOTS_MS) throw outcome.refusal ?? tooMany(outcome.retryAfter);
    await new Promise((r) => setTimeout(r, RETRY_EVERY_MS));
  }
}

function tooMany(retryAfter: number) {
  return new AppError('TOO_MANY_REQUESTS', `Too many failed sign-in attempts. Try again in ${retryAfter} seconds.`, {
    'Retry-After': String(retryAfter),
  });
}

async function tryReserve(ctx: ServiceContext, keys: LoginThrottleKeys): Promise<{ reserved?: LoginReservation; refusal?: AppError; retryAfter: number }> {
  const db = ctx.env.DB;
  const now = ctx.now().getTime();
  const known = await db.prepare('SELECT 1 AS known FROM rate_limits WHERE key = ?1 AND window_ends_at > ?2').bind(keys.known, now).first();
  const taken: LimitName[] = known ? ['pair'] : ['pair', 'address', 'email'];
  const limited = taken.map((name) => ({ name, key: keys[name], ...LOGIN_LIMITS[name] }));

  // 1. A missing or ended window starts again at 0.
  const open = limited.map((l) =>
    db
      .prepare(
        `INSERT INTO rate_limits (key, count, failed, window_ends_at) VALUES (?1, 0, 0, ?2)
         ON CONFLICT (key) DO UPDATE SET count = 0, failed = 0, window_ends_at = excluded.window_ends_at WHERE rate_limits.window_ends_at <= ?3`,
      )
      .bind(l.key, now + l.windowMs, now),
  );
  // 2. One statement raises every count, or none: the NOT EXISTS is uncorrelated, so SQLite evaluates
  //    it once, before any row changes. D1 runs a batch as one transaction, serialised with every
  //    other write, so two racing attempts cannot both see the last free slot.
  const keyList = limited.map((_, i) => `?${i + 1}`).join(', ');
  const full = limited.map((_, i) => `(key = ?${i + 1} AND count >= ?${limited.length + i + 1})`).join(' OR ');
  const take = db
    .prepare(`UPDATE rate_limits SET count = count + 1 WHERE key IN (${keyList}) AND NOT EXISTS (SELECT 1 FROM rate_limits WHERE ${full}) RETURNING key`)
    .bind(...limited.map((l) => l.key), ...limited.map((l) => l.max));
  const state = db.prepare(`SELECT key, count, failed, window_ends_at FROM rate_limits WHERE key IN (${keyList})`).bind(...limited.map((l) => l.key));
  const results = await db.batch([...open, take, state]);

  const rows = results[open.length + 1]!.results as { key: string; count: number; failed: number; window_ends_at: number }[];
  const maxOf = (key: string) => limited.find((l) => l.key === key)?.max ?? Infinity;
  if ((results[open.length]!.results as unknown[]).length === limited.length) return { reserved: { keys, taken }, retryAfter: 0 };
  const full_ = rows.filter((r) => r.count >= maxOf(r.key));
  const endsAt = Math.max(...full_.map((r) => r.window_ends_at), now + 1000);
  const retryAfter = Math.max(1, Math.ceil((endsAt - now) / 1000));
  // Refused only by failures; slots held by attempts in flight free themselves in a moment.
  const byFailures = rows.some((r) => r.failed >= maxOf(r.key));
  return { ...(byFailures ? { refusal: tooMany(retryAfter) } : {}), retryAfter };
}

/** The password was wrong: the slots this attempt holds stay taken, now as failures. */
export async function settleLoginFailure(ctx: ServiceContext, reservation: LoginReservation) {
  const keys = reservation.taken.map((n) => reservation.keys[n]);
  await ctx.env.DB.prepare(`UPDATE rate_limits SET failed = MIN(failed + 1, count) WHERE key IN (${keys.map((_, i) => `?${i + 1}`).join(', ')})`)
    .bind(...keys)
    .run();
}

/**
 * The password was right: this pair's failures are forgiven, the address and email slots this attempt
 * took are given back (it was not a failure), and the address becomes known to the account.
 */
export async function settleLoginSuccess(ctx: ServiceContext, reservation: LoginReservation) {
  const db = ctx.env.DB;
  const { keys, taken } = reservation;
  const now = ctx.now().getTime();
  const giveBack = taken.filter((n) => n !== 'pair').map((n) => keys[n]);
  await db.batch([
    db.prepare('DELETE FROM rate_limits WHERE key = ?1').bind(keys.pair),
    ...giveBack.map((key) => db.prepare('UPDATE rate_limits SET count = MAX(count - 1, 0) WHERE key = ?1').bind(key)),
    db
      .prepare(
        `INSERT INTO rate_limits (key, count, window_ends_at) VALUES (?1, 1, ?2)
         ON CONFLICT (key) DO UPDATE SET window_ends_at = excluded.window_ends_at`,
      )
      .bind(keys.known, now + KNOWN_ADDRESS_TTL_MS),
  ]);
}
