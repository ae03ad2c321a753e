import { PLAN_LIMITS, type PlanId } from '@afterword/worker/contracts/plans';
import { Link } from '@tanstack/react-router';
import { formatCount } from './format';

const PLAN_ORDER: PlanId[] = ['free', 'plus', 'pro', 'immortality'];

/** The monthly API-call budget of the person's plan, and every plan's, from the server's own limits. */
export function QuotaNote({ plan }: { plan: PlanId | undefined }) {
  const mine = plan ? PLAN_LIMITS[plan] : undefined;
  return (
    <div className="note">
      {mine ? (
        <p className="alert__line">
          Your plan, {mine.name}, includes <strong>{formatCount(mine.apiCallsPerMonth)} API calls a month</strong>, shared by all your keys.
        </p>
      ) : null}
      <p className="alert__line">
        Past the limit, calls are refused with 429 and a <code>Retry-After</code> header until the next month. Every answer carries{' '}
        <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code> and <code>X-RateLimit-Reset</code>.
      </p>
      <p className="alert__line">
        Monthly calls by plan: {PLAN_ORDER.map((id) => `${PLAN_LIMITS[id].name} ${formatCount(PLAN_LIMITS[id].apiCallsPerMonth)}`).join(' · ')}.{' '}
        <Link to="/pricing">Compare plans</Link>
      </p>
    </div>
  );
}
