import { Link } from '@tanstack/react-router';
import { EmptyState } from '../../components/empty-state';
import { Time } from '../../components/time';
import { MediaLink } from './media-link';

export interface Remembrance {
  id: string;
  memorial_id: string;
  memorial_name: string;
  text: string;
  media_url: string | null;
  candle_count: number;
  timestamp: string;
}

/** Remembrances found: each post with its memorial's name (a link to the page), text as text. */
export function RemembranceList({ items }: { items: Remembrance[] }) {
  if (!items.length) return <EmptyState title="No remembrance matches." />;
  return (
    <ul className="community-list" aria-label="Remembrances">
      {items.map((r) => (
        <li key={r.id} className="community-list__item">
          <div className="stack">
            <Link to="/app/memorial/$id" params={{ id: r.memorial_id }}>
              {r.memorial_name}
            </Link>
            <p className="community-text">{r.text}</p>
            <MediaLink url={r.media_url} label={`Photo shared in memory of ${r.memorial_name}`} />
            <p className="muted">
              <Time value={r.timestamp} /> · {r.candle_count === 1 ? '1 candle' : `${r.candle_count} candles`}
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}
