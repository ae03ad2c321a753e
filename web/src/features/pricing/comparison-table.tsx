import { TableScroll } from '../../components/table-scroll';
import { formatUsd, TIERS, type Tier } from '../../lib/pricing';

const ROWS: { label: string; value: (t: Tier) => string }[] = [
  { label: 'Monthly', value: (t) => formatUsd(t.pricing.monthly) },
  { label: 'Annual', value: (t) => formatUsd(t.pricing.annual) },
  { label: 'Lifetime', value: (t) => formatUsd(t.pricing.lifetime) },
  {
    label: 'Memorial closeout',
    value: (t) => (t.pricing.closeout ? `${formatUsd(t.pricing.closeout.price)} for ${t.pricing.closeout.years} years` : 'Not offered'),
  },
  { label: 'Canaries', value: (t) => (t.limits.canaries === 'unlimited' ? 'Unlimited' : String(t.limits.canaries)) },
  { label: 'Storage', value: (t) => `${t.limits.storageGb} GB` },
  { label: 'Voice minutes per session', value: (t) => String(t.limits.voiceMinutesPerSession) },
  { label: 'API calls', value: (t) => t.limits.apiCalls.toLocaleString('en-US') },
];

export function ComparisonTable() {
  return (
    <TableScroll labelledBy="compare-title">
      <table className="table">
        <caption id="compare-title">Compare plans (prices in USD)</caption>
        <thead>
          <tr>
            <th scope="col">Feature</th>
            {TIERS.map((t) => (
              <th key={t.id} scope="col">
                {t.name}
                {t.recommended ? ' (recommended)' : ''}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {ROWS.map((row) => (
            <tr key={row.label}>
              <th scope="row">{row.label}</th>
              {TIERS.map((t) => (
                <td key={t.id}>{row.value(t)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
