import { formatBytes, type StorageView } from '@afterword/worker/contracts/attachments';
import { PLAN_LIMITS } from '@afterword/worker/contracts/plans';
import { ErrorState } from '../../components/error-state';
import { Skeleton } from '../../components/skeleton';
import { trpc } from '../../lib/trpc';
import { T } from './texts';

/** Used / limit for the plan, as a meter and in words. */
export function StorageMeter({ storage }: { storage: StorageView }) {
  const { used_bytes: used, limit_bytes: limit } = storage;
  const planName = PLAN_LIMITS[storage.plan]?.name ?? storage.plan;
  const text = T.storageUsage(formatBytes(used), formatBytes(limit), planName);
  return (
    <div className="storage-usage">
      <p className="storage-usage__text">{text}</p>
      <meter className="storage-usage__meter" min={0} max={limit} value={Math.min(used, limit)} aria-label={`Storage used: ${text}`} />
      <p className="field__hint">{T.storageHint}</p>
    </div>
  );
}

export function StorageUsage() {
  const storage = trpc.attachments.storage.useQuery();
  if (storage.isPending) return <Skeleton lines={1} label="Loading your storage use" />;
  if (storage.isError) return <ErrorState title={T.storageFailed} read={storage} />;
  return <StorageMeter storage={storage.data} />;
}
