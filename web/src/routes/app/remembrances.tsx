import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { TextField } from '../../components/field';
import { QueryState } from '../../components/query-state';
import { SelectField, toOptions } from '../../components/select';
import { PageHeader } from '../../features/app-pages/page-header';
import { RemembranceList } from '../../features/community/remembrance-list';
import { MEMORIAL_TAGS } from '../../features/community/types';
import { trpc } from '../../lib/trpc';

export const Route = createFileRoute('/app/remembrances')({
  component: RemembrancesPage,
});

const SORTS = [
  { value: 'newest', label: 'Newest' },
  { value: 'candles', label: 'Most candles' },
];

function RemembrancesPage() {
  const [f, setF] = useState({ name: '', tag: '', cause: '', sort: 'newest' as 'newest' | 'candles' });
  const input = { name: f.name.trim() || undefined, tag: f.tag || undefined, cause: f.cause.trim() || undefined, sort: f.sort };
  const found = trpc.memorial.remembrances.useInfiniteQuery(input, { getNextPageParam: (page) => page.next_cursor ?? undefined });
  const query = { ...found, data: found.data ? found.data.pages.flatMap((p) => p.items) : undefined };
  return (
    <>
      <PageHeader title="Remembrances">
        <p>Memories shared on memorial pages. Search by name, tag and cause.</p>
      </PageHeader>
      <Card title="Search">
        <div className="filters">
          <TextField label="Name" name="name" type="search" value={f.name} onChange={(e) => setF({ ...f, name: e.target.value })} />
          <SelectField
            label="Tag"
            name="tag"
            placeholder="Every tag"
            options={toOptions(MEMORIAL_TAGS)}
            value={f.tag}
            onChange={(e) => setF({ ...f, tag: e.target.value })}
          />
          <TextField label="Cause" name="cause" type="search" value={f.cause} onChange={(e) => setF({ ...f, cause: e.target.value })} />
          <SelectField label="Sort" name="sort" options={SORTS} value={f.sort} onChange={(e) => setF({ ...f, sort: e.target.value as 'newest' | 'candles' })} />
        </div>
        <QueryState query={query} loading="Loading remembrances" failed="Remembrances could not be loaded.">
          {(items) => (
            <>
              <RemembranceList items={items} />
              {found.hasNextPage ? (
                <div className="button-row">
                  <Button variant="secondary" disabled={found.isFetchingNextPage} onClick={() => void found.fetchNextPage()}>
                    {found.isFetchingNextPage ? 'Loading…' : 'Show more'}
                  </Button>
                </div>
              ) : null}
            </>
          )}
        </QueryState>
      </Card>
    </>
  );
}
