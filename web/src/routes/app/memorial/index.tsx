import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { Card } from '../../../components/card';
import { EmptyState } from '../../../components/empty-state';
import { TextField } from '../../../components/field';
import { QueryState } from '../../../components/query-state';
import { SelectField, toOptions } from '../../../components/select';
import { toast } from '../../../components/toast';
import { PageHeader } from '../../../features/app-pages/page-header';
import { MemorialForm, type MemorialBody } from '../../../features/community/memorial-form';
import { MEMORIAL_TAGS } from '../../../features/community/types';
import { readApiError } from '../../../lib/api-error';
import { trpc } from '../../../lib/trpc';

export const Route = createFileRoute('/app/memorial/')({
  component: MemorialsPage,
});

function MemorialsPage() {
  const [q, setQ] = useState('');
  const [tag, setTag] = useState('');
  const list = trpc.memorial.list.useQuery({ q: q.trim() || undefined, tag: tag || undefined });
  const navigate = useNavigate();
  const moderation = trpc.moderation.status.useQuery();
  const create = trpc.memorial.create.useMutation({
    onError: (error) => void toast.error(readApiError(error).detail ?? 'Could not make the memorial. Please try again.'),
  });
  async function onCreate(body: MemorialBody) {
    try {
      const made = await create.mutateAsync(body);
      await navigate({ to: '/app/memorial/$id', params: { id: made.id } });
      return true;
    } catch {
      return false;
    }
  }
  return (
    <>
      <PageHeader title="Memorials">
        <p>Pages for the people we lost, with memories, photos and candles. Free, without ads.</p>
        {moderation.data?.moderator ? (
          <p>
            <Link to="/app/moderation">Review queue ({moderation.data.waiting} waiting)</Link>
          </p>
        ) : null}
      </PageHeader>
      <div className="stack">
        <Card title="Find a memorial">
          <div className="filters">
            <TextField label="Search" name="q" type="search" value={q} onChange={(e) => setQ(e.target.value)} hint="A name, words of an epitaph, or a cause." />
            <SelectField
              label="Tag"
              name="tag"
              placeholder="Every tag"
              options={toOptions(MEMORIAL_TAGS)}
              value={tag}
              onChange={(e) => setTag(e.target.value)}
            />
          </div>
          <QueryState query={list} loading="Loading memorials" failed="Memorials could not be loaded.">
            {(memorials) =>
              memorials.length ? (
                <ul className="community-list" aria-label="Memorials">
                  {memorials.map((m) => (
                    <li key={m.id} className="community-list__item">
                      <div>
                        <Link to="/app/memorial/$id" params={{ id: m.id }}>
                          {m.name}
                        </Link>
                        {m.epitaph ? <p className="muted">{m.epitaph}</p> : null}
                        {m.tags.length ? <p className="muted">{m.tags.join(', ')}</p> : null}
                      </div>
                    </li>
                  ))}
                </ul>
              ) : (
                <EmptyState title="No memorial matches." />
              )
            }
          </QueryState>
        </Card>
        <Card title="Make a memorial">
          <MemorialForm onCreate={onCreate} pending={create.isPending} />
        </Card>
      </div>
    </>
  );
}
