import type { TCanaryWarning, TWarningDelivery } from '@afterword/worker/contracts/canary';

import { formatClock } from '../../lib/format-time';

export const WARNING_TITLES: Record<TCanaryWarning['kind'], string> = {
  grace_reminder: 'Grace-period reminder',
  late_rewarn: 'Deadline passed — warning',
  missed: 'Missed check-in',
  pause_ending: 'Vacation pause ends soon',
};

/**
 * Where one notice went, in a line: "Emailed you 14:02 · push to 2 devices 14:02". Channels that accepted
 * it come first; those that failed are named too ("email failed 14:01"), so a gap shows.
 */
export function warningSummary(warning: Pick<TCanaryWarning, 'deliveries' | 'delivered_at'>, clock: (iso: string) => string = formatClock): string {
  const accepted = warning.deliveries.filter((d) => d.ok);
  const failed = warning.deliveries.filter((d) => !d.ok && !accepted.some((a) => a.channel === d.channel));
  const parts: string[] = [];
  const first = (ds: TWarningDelivery[]) => clock(ds[0]!.at);
  const by = (ds: TWarningDelivery[], channel: TWarningDelivery['channel']) => ds.filter((d) => d.channel === channel);
  const email = by(accepted, 'email');
  if (email.length) parts.push(`Emailed you ${first(email)}`);
  const sms = by(accepted, 'sms');
  if (sms.length) parts.push(`Texted you ${first(sms)}`);
  const push = by(accepted, 'push');
  if (push.length) parts.push(`push to ${push.length} ${push.length === 1 ? 'device' : 'devices'} ${first(push)}`);
  const feed = by(accepted, 'in_app');
  if (feed.length) parts.push(`In your activity feed ${first(feed)} (canary alerts are off and nothing is at stake)`);
  for (const channel of ['email', 'sms', 'push'] as const) {
    const f = by(failed, channel);
    if (f.length) parts.push(`${channel === 'sms' ? 'SMS' : channel} failed ${first(f)}`);
  }
  if (!accepted.length) parts.push(warning.deliveries.length ? 'not delivered yet — trying again' : 'waiting to be sent');
  const line = parts.join(' · ');
  return line.charAt(0).toUpperCase() + line.slice(1);
}
