import { useState } from 'react';
import { toast, toastApiError } from '../../components/toast';
import { createRetryKeys } from '../../lib/create-retry-keys';
import { trpc } from '../../lib/trpc';

const settled = (p: Promise<unknown>) =>
  p.then(
    () => true,
    () => false,
  );

/** Write, delete and publish again one's capsules; each resolves true once done (an error is already said). */
export function useCapsuleActions() {
  const utils = trpc.useUtils();
  const refresh = () => Promise.all([utils.capsule.mine.invalidate(), utils.capsule.browse.invalidate()]);
  const create = trpc.capsule.create.useMutation({
    onSuccess: async () => {
      toast.success('Capsule saved');
      await refresh();
    },
    onError: toastApiError('Could not save the capsule. Please try again.'),
  });
  const remove = trpc.capsule.remove.useMutation({
    onSuccess: async () => {
      toast.success('Capsule deleted');
      await refresh();
    },
    onError: toastApiError('Could not delete the capsule. Please try again.'),
  });
  const publish = trpc.capsule.publish.useMutation({ onSuccess: refresh, onError: toastApiError('Could not publish the capsule. Please try again.') });
  const edit = trpc.capsule.edit.useMutation({
    onSuccess: async () => {
      toast.success('Capsule saved');
      await refresh();
    },
    onError: toastApiError('Could not save the capsule. Please try again.'),
  });
  const removeMedia = trpc.capsule.deleteMedia.useMutation({
    onSuccess: async () => {
      toast.success('File removed');
      await refresh();
    },
    onError: toastApiError('Could not remove the file. Please try again.'),
  });
  return {
    create: (body: Parameters<typeof create.mutateAsync>[0]) => settled(create.mutateAsync(body)),
    createPending: create.isPending,
    edit: (id: string, body: Parameters<typeof create.mutateAsync>[0]) => settled(edit.mutateAsync({ id, ...body })),
    editPending: edit.isPending,
    remove: (id: string) => settled(remove.mutateAsync({ id })),
    publish: (id: string) => settled(publish.mutateAsync({ id })),
    mediaAdded: () => refresh().then(() => undefined),
    removeMedia: (id: string, itemId: string) => settled(removeMedia.mutateAsync({ id, item_id: itemId })),
  };
}

/** A post on a memorial as the page sends it. */
interface PostInput {
  id: string;
  text: string;
  media_url: string | null;
  idempotency_key?: string | null;
}

/** Post on a memorial and light candles; the page's read refreshes after each. */
export function useMemorialActions(memorialId: string) {
  const utils = trpc.useUtils();
  const refresh = () => utils.memorial.get.invalidate({ id: memorialId });
  const post = trpc.memorial.post.useMutation({ onSuccess: refresh, onError: toastApiError('Could not post. Please try again.') });
  const candle = trpc.memorial.lightCandle.useMutation({ onSuccess: refresh, onError: toastApiError('Could not light the candle. Please try again.') });
  const report = trpc.moderation.reportPost.useMutation({
    onSuccess: () => void toast.success('Reported. It will be reviewed.'),
    onError: toastApiError('Could not report the post. Please try again.'),
  });
  const remove = trpc.moderation.deletePost.useMutation({
    onSuccess: async () => {
      toast.success('Post removed');
      await refresh();
    },
    onError: toastApiError('Could not remove the post. Please try again.'),
  });
  // Sent again after a failure, the same post keeps its key: the page shows it once (lib/create-retry-keys.ts).
  const [keys] = useState(() => createRetryKeys<PostInput>());
  return {
    report: (postId: string) => settled(report.mutateAsync({ id: postId })),
    remove: (postId: string) => settled(remove.mutateAsync({ id: postId })),
    post: (text: string, mediaUrl: string) => settled(keys.sending({ id: memorialId, text, media_url: mediaUrl || null }, post.mutateAsync)),
    postPending: post.isPending,
    light: (postId: string) => settled(candle.mutateAsync({ id: postId })),
    lightPending: candle.isPending,
  };
}
