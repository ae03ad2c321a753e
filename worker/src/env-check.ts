import { z } from 'zod';
import type { Bindings } from './env';

/**
 * The Worker's environment, checked once per isolate (docs/decisions/deployment-modes.md). `wrangler.toml`
 * ships production: a plain `wrangler deploy` is a production Worker, and `npm start` and the tests ask
 * for development explicitly (`--var APP_ENV:development`, the vitest bindings).
 *
 * - One zod schema says what each setting may be; a setting that is present must be well formed.
 * - A production Worker refuses to work until its required secrets and settings are there, saying which
 *   (503 to every request, queue batches retried, cron runs skipped): the fixed development secrets, the
 *   local outbox and the sandbox checkout never serve real people by omission.
 * - A development Worker answers only requests addressed to this machine (loopback), or to the hosts in
 *   DEV_ALLOWED_HOSTS (the Worker tests' `afterword.test`): development mode has fixed secrets, free
 *   plans and an outbox anyone signed in can read of their own, and must not be reachable as a service.
 */
const transport = (kinds: readonly [string, ...string[]]) => z.enum(kinds).optional();
const flag = z.enum(['true', 'false']).optional();
const url = z.url().optional();

export const ZEnvironment = z.object({
  APP_ENV: z.enum(['production', 'development'], { message: 'APP_ENV must be "production" or "development"' }),
  PUBLIC_ORIGIN: z.url({ message: 'PUBLIC_ORIGIN must be an origin such as https://afterword.example' }),
  SESSION_TTL_SECONDS: z.string().regex(/^\d+$/, 'SESSION_TTL_SECONDS must be a whole number of seconds').optional(),
  EMAIL_TRANSPORT: transport(['outbox', 'smtp', 'api']),
  SMS_TRANSPORT: transport(['outbox', 'twilio']),
  CALL_TRANSPORT: transport(['outbox', 'twilio']),
  PUSH_TRANSPORT: transport(['outbox', 'webpush']),
  WEBHOOK_ALLOW_PRIVATE_URLS: flag,
  OUTBOX_OPERATOR_VIEW: flag,
  TRUST_CF_CONNECTING_IP: flag,
  BILLING_PROVIDER: z.enum(['sandbox', 'stripe']).optional(),
  VOICE_ENGINE: z.enum(['local', 'workers-ai', 'elevenlabs']).optional(),
  GOOGLE_AUTH_URL: url,
  GOOGLE_TOKEN_URL: url,
  GOOGLE_JWKS_URL: url,
  ELEVENLABS_API_BASE: url,
  D1_DELAY_MS: z.string().regex(/^\d+$/).optional(),
  DEV_ALLOWED_HOSTS: z.string().optional(),
});

/** What production needs before it serves anyone, each with the reason it is needed. */
const PRODUCTION_NEEDS: { ok: (env: Record<string, unknown>) => boolean; need: string }[] = [
  { ok: (e) => Boolean(e.CANARY_TOKEN_SECRET), need: 'the secret CANARY_TOKEN_SECRET (check-in tokens are derived from it)' },
  { ok: (e) => Boolean(e.WEBHOOK_SECRET_KEY), need: 'the secret WEBHOOK_SECRET_KEY (it encrypts webhook signing secrets)' },
  {
    ok: (e) => e.EMAIL_TRANSPORT === 'smtp' || e.EMAIL_TRANSPORT === 'api',
    need: 'EMAIL_TRANSPORT = "smtp" or "api" with its settings (the local outbox delivers nothing to anyone)',
  },
  { ok: (e) => typeof e.PUBLIC_ORIGIN === 'string' && e.PUBLIC_ORIGIN.startsWith('https://'), need: 'PUBLIC_ORIGIN on https (the links in every email)' },
];

/** Everything wrong with `env`, in words a deployer can act on; empty when it may serve. */
export function environmentProblems(env: Record<string, unknown>): string[] {
  const parsed = ZEnvironment.safeParse(env);
  const problems = parsed.success ? [] : parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
  if (env.APP_ENV === 'production') for (const n of PRODUCTION_NEEDS) if (!n.ok(env)) problems.push(`set ${n.need}`);
  return problems;
}

const checked = new WeakMap<object, string[]>();
/** environmentProblems, once per environment object (one per isolate). */
export function problemsOf(env: Bindings): string[] {
  let problems = checked.get(env);
  if (!problems) {
    problems = environmentProblems(env as unknown as Record<string, unknown>);
    checked.set(env, problems);
  }
  return problems;
}

export const notConfiguredDetail = (problems: readonly string[]) =>
  `This Afterword Worker is not configured to serve: ${problems.join('; ')}. Set them with wrangler secret put / [vars], or run it for development with APP_ENV=development.`;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** Whether a development Worker may answer a request for `url`: loopback, or a host in DEV_ALLOWED_HOSTS. */
export function developmentHostAllowed(env: Pick<Bindings, 'DEV_ALLOWED_HOSTS'>, url: string): boolean {
  const host = new URL(url).hostname.toLowerCase();
  if (LOOPBACK.has(host) || host.endsWith('.localhost')) return true;
  return (env.DEV_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean)
    .includes(host);
}

export const DEVELOPMENT_ONLY_DETAIL =
  'This Afterword Worker runs in development mode and answers only on this machine (127.0.0.1 or localhost). Deploy it with APP_ENV = "production" to serve others.';
