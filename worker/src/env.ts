import type { Db } from '@afterword/db';
import type { EmailEnv } from './channels/email';
import type { PushEnv } from './channels/push';
import type { TwilioEnv } from './channels/twilio';
import type { ActivityLineSource } from './domains/activity/line-sources';
import type { CheckInParticipant } from './domains/canary/check-in-rows';
import type { StripeEnv } from './domains/billing/providers/stripe';
import type { Clock } from './lib/clock';

/**
 * Bindings and vars come from wrangler.toml through `wrangler types` (worker-configuration.d.ts);
 * secrets and optional settings are declared here. The channel settings are documented beside their
 * adapters (channels/email/index.ts, channels/twilio/config.ts, channels/push/send.ts).
 */
export type Bindings = Omit<Env, 'EMAIL_TRANSPORT' | 'SMS_TRANSPORT' | 'CALL_TRANSPORT' | 'PUSH_TRANSPORT' | 'PUBLIC_ORIGIN'> &
  EmailEnv &
  TwilioEnv &
  PushEnv &
  StripeEnv & {
    PUBLIC_ORIGIN: string;
    /**
     * "true" lets every signed-in user read every outbox row (the operator view, GET /api/outbox/all):
     * unset by default, ignored in production (domains/outbox/outbox-access.ts).
     */
    OUTBOX_OPERATOR_VIEW?: string;
    /**
     * The community moderators: account emails, comma-separated. They see the review queue of hidden
     * capsules and posts and decide (domains/moderation/review.ts). Unset: nobody moderates.
     */
    MODERATOR_EMAILS?: string;
    /** Secret from which canary check-in tokens are derived (a local default is used outside production). */
    CANARY_TOKEN_SECRET?: string;
    GOOGLE_CLIENT_ID?: string;
    GOOGLE_CLIENT_SECRET?: string;
    /** Overridable OAuth endpoints: production uses Google's; tests point them at a local fake. */
    GOOGLE_AUTH_URL?: string;
    GOOGLE_TOKEN_URL?: string;
    GOOGLE_JWKS_URL?: string;
    GOOGLE_ISSUER?: string;
    /** Test harness only: trust a client-sent CF-Connecting-IP outside production (lib/client-address.ts). */
    TRUST_CF_CONNECTING_IP?: string;
    /**
     * The voice engine (docs/server-rules.md "Voice, persona and chat import"): local (default), workers-ai or
     * elevenlabs (domains/voice/engine.ts).
     */
    VOICE_ENGINE?: string;
    /** Workers AI, for VOICE_ENGINE=workers-ai (domains/voice/persona-engine/engines.ts); not bound locally. */
    // Typed loosely here so the environment depends on no domain; the engines narrow each call's input.
    AI?: { run(model: string, input: unknown): Promise<unknown> };
    /** VOICE_ENGINE=elevenlabs (domains/voice/elevenlabs.ts): the API key (a secret, never logged), the API's
     * address (default https://api.elevenlabs.io; tests point it at a local peer) and the speech model. */
    ELEVENLABS_API_KEY?: string;
    ELEVENLABS_API_BASE?: string;
    ELEVENLABS_MODEL_ID?: string;
    /** The payment provider (docs/decisions/billing.md): sandbox (default outside production) or stripe. */
    BILLING_PROVIDER?: string;
    /** Bench only: milliseconds added to every D1 round trip, never in production (lib/d1-delay.ts). */
    D1_DELAY_MS?: string;
    /** Build-time price overrides, the same JSON as the web build's VITE_PRICING_OVERRIDES (contracts/plans.ts). */
    PRICING_OVERRIDES?: string;
    /** Development only: hosts besides loopback a development Worker answers (env-check.ts); the Worker tests' afterword.test. */
    DEV_ALLOWED_HOSTS?: string;
  };

/** What every service receives: the database, the bindings, the clock and the cross-domain wiring (created by wiring/service-context.ts). */
export interface ServiceContext {
  db: Db;
  env: Bindings;
  now: Clock;
  /**
   * Hands work that may finish after the answer to the runtime (a request's waitUntil). Absent outside a
   * request (queue consumers, cron, in-process tests): the service then awaits the work itself.
   */
  defer?: (work: Promise<unknown>) => void;
  /** What a check-in changes in other domains, in its batch (wiring/check-in-participants.ts). */
  checkInParticipants: readonly CheckInParticipant[];
  /** Feed lines kept outside D1's activity table (wiring/activity-lines.ts). */
  activityLines: readonly ActivityLineSource[];
}

/** Local conveniences (the outbox page, a generated VAPID key) exist only outside production. */
export const isProduction = (env: Pick<Bindings, 'APP_ENV'>) => (env.APP_ENV as string) === 'production';
