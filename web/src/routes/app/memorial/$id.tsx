import { createFileRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Card } from '../../../components/card';
import { QueryState } from '../../../components/query-state';
import { SelectField } from '../../../components/select';
import { PageHeader } from '../../../features/app-pages/page-header';
import { MediaLink } from '../../../features/community/media-link';
import { MemorialPosts } from '../../../features/community/memorial-posts';
import { PostForm } from '../../../features/community/post-form';
import { useMemorialActions } from '../../../features/community/queries';
import { awaitReads } from '../../../lib/route-data';
import { trpc } from '../../../lib/trpc';

export const Route = createFileRoute('/app/memorial/$id')({
  loader: ({ context: { trpc }, params }) => awaitReads(trpc.memorial.get.ensureData({ id: params.id, sort: 'newest' })),
  component: MemorialPage,
});

const SORTS = [
  { value: 'newest', label: 'Newest' },
  { value: 'candles', label: 'Most candles' },
];

function MemorialPage() {
  const { id } = Route.useParams();
  const [sort, setSort] = useState<'newest' | 'candles'>('newest');
  const memorial = trpc.memorial.get.useQuery({ id, sort });
  const actions = useMemorialActions(id);
  const loaded = memorial.data;
  return (
    <>
      <PageHeader title={loaded?.name ?? 'Memorial'}>
        {loaded?.epitaph ? <p>{loaded.epitaph}</p> : null}
        {loaded && (loaded.tags.length || loaded.cause) ? <p className="muted">{[loaded.tags.join(', '), loaded.cause].filter(Boolean).join(' · ')}</p> : null}
      </PageHeader>
      <QueryState query={memorial} loading="Loading the memorial" failed="This memorial could not be loaded.">
        {(m) => (
          <div className="stack">
            <MediaLink url={m.avatar_url} label={`Photo of ${m.name}`} />
            <Card title="Capsules">
              {m.capsules.length ? (
                <ul className="community-list" aria-label="Capsules for this memorial">
                  {m.capsules.map((c) => (
                    <li key={c.id} className="community-list__item">
                      <Link to="/app/capsule/$id" params={{ id: c.id }}>
                        {c.title}
                      </Link>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="muted">No capsule is open here yet.</p>
              )}
              <p>
                <Link to="/app/capsules" search={{ memorial: id }}>
                  Write a capsule for this memorial
                </Link>
              </p>
            </Card>
            <Card title="Share a memory">
              <PostForm onPost={actions.post} pending={actions.postPending} />
            </Card>
            <Card title="Memories">
              <SelectField label="Sort" name="sort" options={SORTS} value={sort} onChange={(e) => setSort(e.target.value as 'newest' | 'candles')} />
              <MemorialPosts posts={m.posts} onLight={actions.light} lightPending={actions.lightPending} onReport={actions.report} onRemove={actions.remove} />
            </Card>
          </div>
        )}
      </QueryState>
    </>
  );
}
