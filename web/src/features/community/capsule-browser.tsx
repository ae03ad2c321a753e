import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { CAPSULE_BROWSE_LIMIT, capsuleCursor } from '@afterword/worker/contracts/capsules';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { QueryState } from '../../components/query-state';
import { SelectField, toOptions } from '../../components/select';
import { Time } from '../../components/time';
import { trpc } from '../../lib/trpc';
import { THEMES } from './types';

const firstYear = 2024;

/**
 * Released capsules by theme and year (docs/product.md "Community: capsules and memorials"), each linking to
 * its page.
 */
export function CapsuleBrowser() {
  const [theme, setTheme] = useState('');
  const [year, setYear] = useState('');
  const years = Array.from({ length: new Date().getFullYear() - firstYear + 1 }, (_, i) => String(new Date().getFullYear() - i));
  const pages = trpc.capsule.browse.useInfiniteQuery(
    { theme: theme as never, year: year ? Number(year) : undefined },
    // A full page may have more after it: the next one starts after its last capsule.
    { getNextPageParam: (page) => (page.length === CAPSULE_BROWSE_LIMIT ? capsuleCursor(page.at(-1)!.release_at, page.at(-1)!.id) : undefined) },
  );
  const browse = { ...pages, data: pages.data ? pages.data.pages.flat() : undefined };
  return (
    <div className="stack">
      <div className="filters">
        <SelectField
          label="Theme"
          name="browse-theme"
          placeholder="All themes"
          options={toOptions(THEMES)}
          value={theme}
          onChange={(e) => setTheme(e.target.value)}
        />
        <SelectField
          label="Year"
          name="browse-year"
          placeholder="Every year"
          options={toOptions(years)}
          value={year}
          onChange={(e) => setYear(e.target.value)}
        />
      </div>
      <QueryState query={browse} loading="Loading capsules" failed="Capsules could not be loaded.">
        {(capsules) =>
          capsules.length ? (
            <>
              <ul className="community-list" aria-label="Open capsules">
                {capsules.map((c) => (
                  <li key={c.id} className="community-list__item">
                    <div>
                      <Link to="/app/capsule/$id" params={{ id: c.id }}>
                        {c.title}
                      </Link>
                      <p className="muted">
                        {c.theme} · opened <Time value={c.release_at} />
                      </p>
                    </div>
                  </li>
                ))}
              </ul>
              {pages.hasNextPage ? (
                <div className="button-row">
                  <Button variant="secondary" disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
                    {pages.isFetchingNextPage ? 'Loading…' : 'Show more'}
                  </Button>
                </div>
              ) : null}
            </>
          ) : (
            <EmptyState title="No capsules have opened here yet." />
          )
        }
      </QueryState>
    </div>
  );
}
