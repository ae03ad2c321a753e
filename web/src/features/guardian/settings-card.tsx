import { isLiveGuardian } from '@afterword/worker/contracts/guardian';
import { Card } from '../../components/card';
import { Skeleton } from '../../components/skeleton';
import { trpc } from '../../lib/trpc';
import { useSettingsActions } from './queries';
import { SettingsForm } from './settings-form';
import { T } from './texts';
import type { Guardian } from './types';
import { ErrorState } from '../../components/error-state';

/** The owner's ladder settings, read and saved here. */
export function SettingsCard({ guardians = [] }: { guardians?: readonly Guardian[] }) {
  const settings = trpc.guardian.settings.useQuery();
  const { save, pending } = useSettingsActions();
  const live = guardians.filter((g) => isLiveGuardian(g.status)).length;
  return (
    <Card title="Settings">
      {settings.isPending ? (
        <Skeleton lines={2} label="Loading your guardian settings" />
      ) : settings.isError ? (
        <ErrorState title={T.loadFailed} read={settings} />
      ) : (
        <SettingsForm key={JSON.stringify(settings.data)} settings={settings.data} liveGuardians={live} onSave={save} pending={pending} />
      )}
    </Card>
  );
}
