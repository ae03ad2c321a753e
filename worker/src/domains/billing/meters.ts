import type { User } from '@afterword/db/schema';
import type { Meter } from '../../contracts/billing';
import { PLAN_LIMITS } from '../../contracts/plans';
import type { ServiceContext } from '../../env';
import { storageUsedBytes } from '../storage/storage-meter';
import { monthKey, nextMonthStart } from '../developer/quota';

const finite = (n: number) => (Number.isFinite(n) ? n : null);

/**
 * Every meter of the account against its plan (docs/decisions/billing.md): canaries, the one storage meter
 * (storage/storage-meter.ts), API-key calls this UTC month (api_usage, which the usage meter flushes to:
 * a call of the last seconds may not show yet), and voice minutes per session (a per-use limit).
 */
export async function readMeters(ctx: ServiceContext, user: Pick<User, 'id' | 'plan'>): Promise<Meter[]> {
  const limits = PLAN_LIMITS[user.plan];
  const now = ctx.now();
  const [canaries, calls, storage] = await Promise.all([
    ctx.env.DB.prepare('SELECT COUNT(*) AS n FROM canaries WHERE user_id = ?1').bind(user.id).first<{ n: number }>(),
    ctx.env.DB.prepare('SELECT COALESCE(SUM(count), 0) AS n FROM api_usage WHERE user_id = ?1 AND month = ?2')
      .bind(user.id, monthKey(now))
      .first<{ n: number }>(),
    storageUsedBytes(ctx, user.id),
  ]);
  return [
    { key: 'canaries', label: 'Canaries', used: canaries?.n ?? 0, limit: finite(limits.canaries), resets_at: null },
    { key: 'storage_bytes', label: 'Storage', used: storage, limit: finite(limits.storageBytes), resets_at: null },
    {
      key: 'api_calls',
      label: 'API calls this month',
      used: calls?.n ?? 0,
      limit: finite(limits.apiCallsPerMonth),
      resets_at: nextMonthStart(now).toISOString(),
    },
    { key: 'voice_minutes_per_session', label: 'Voice minutes per session', used: null, limit: limits.voiceMinutes, resets_at: null },
  ];
}
