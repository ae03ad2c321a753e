import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { ErrorState } from '../../components/error-state';
import { Skeleton } from '../../components/skeleton';
import { Time } from '../../components/time';
import { toast, toastApiError } from '../../components/toast';
import { trpc } from '../../lib/trpc';
import { MemorialForm } from './memorial-form';

export const WISH_TEXT = {
  title: 'A memorial page',
  intro:
    'If you like, Afterword makes a public memorial page for you once your death is confirmed by your guardians — never before, and never for a test report. People can then post memories and light candles there. The page belongs to your account: if your account is deleted, the page goes with it.',
  saved: 'Memorial wish saved',
  removed: 'No memorial page will be made',
  made: 'Your memorial page was made',
  form: 'Your memorial page',
  save: 'Save my wish',
  remove: 'Make no memorial page',
  loading: 'Loading your memorial wish',
  failed: 'Your memorial wish could not be loaded.',
};

/** The owner's wish for a memorial page at their confirmed death (GET/PUT/DELETE /api/memorial-wish). */
export function MemorialWishCard() {
  const utils = trpc.useUtils();
  const wish = trpc.memorial.wish.useQuery();
  const [formKey, setFormKey] = useState(0);
  const save = trpc.memorial.saveWish.useMutation({
    onSuccess: (next) => {
      utils.memorial.wish.setData(undefined, next);
      toast.success(WISH_TEXT.saved);
    },
    onError: toastApiError('Could not save your wish. Please try again.'),
  });
  const remove = trpc.memorial.deleteWish.useMutation({
    onSuccess: (next) => {
      utils.memorial.wish.setData(undefined, next);
      setFormKey((k) => k + 1);
      toast.success(WISH_TEXT.removed);
    },
    onError: toastApiError('Could not remove your wish. Please try again.'),
  });
  const current = wish.data?.wish ?? null;
  return (
    <Card title={WISH_TEXT.title}>
      <p className="muted">{WISH_TEXT.intro}</p>
      {wish.isPending ? (
        <Skeleton lines={3} label={WISH_TEXT.loading} />
      ) : wish.isError ? (
        <ErrorState title={WISH_TEXT.failed} read={wish} />
      ) : current?.made_at ? (
        <p>
          {WISH_TEXT.made} <Time value={current.made_at} />:{' '}
          <Link to="/app/memorial/$id" params={{ id: current.memorial_id }}>
            {current.name}
          </Link>
        </p>
      ) : (
        <>
          <MemorialForm
            key={formKey}
            initial={current}
            label={WISH_TEXT.form}
            submitLabel={WISH_TEXT.save}
            clearOnSave={false}
            pending={save.isPending}
            onCreate={(body) =>
              save.mutateAsync(body).then(
                () => true,
                () => false,
              )
            }
          />
          {current ? (
            <div className="button-row">
              <Button variant="ghost" disabled={remove.isPending} onClick={() => remove.mutate()}>
                {WISH_TEXT.remove}
              </Button>
            </div>
          ) : null}
        </>
      )}
    </Card>
  );
}
