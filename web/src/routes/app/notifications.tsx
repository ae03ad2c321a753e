import { createFileRoute } from '@tanstack/react-router';
import { Card } from '../../components/card';
import { Skeleton } from '../../components/skeleton';
import { PageHeader } from '../../features/app-pages/page-header';
import { useE2eeStore } from '../../features/e2ee/key-store';
import { makeNewRecoveryKey } from '../../features/e2ee/keys-api';
import { PasswordSection } from '../../features/e2ee/password-section';
import { RecoveryKeySection } from '../../features/e2ee/recovery-key-section';
import { StorageUsage } from '../../features/e2ee/storage-usage';
import { T } from '../../features/e2ee/texts';
import { useKeysApi } from '../../features/e2ee/unlock-prompt';
import { PhoneSection } from '../../features/notify/phone-section';
import { PreferencesForm } from '../../features/notify/preferences-form';
import { ProfileForm } from '../../features/notify/profile-form';
import { PushSection } from '../../features/notify/push-section';
import { ConnectedPasskeysSection } from '../../features/passkeys/connected-passkeys-section';
import { usePreferenceActions, useProfileActions } from '../../features/notify/queries';
import { awaitReads } from '../../lib/route-data';
import { trpc } from '../../lib/trpc';
import { ErrorState } from '../../components/error-state';

export const Route = createFileRoute('/app/notifications')({
  loader: ({ context: { trpc } }) => {
    // Below the fold: the push devices, the recovery key status and the storage meter may arrive after the page.
    void trpc.notify.pushSubscriptions.prefetch();
    void trpc.attachments.storage.prefetch();
    void trpc.keys.recoveryStatus.prefetch();
    return awaitReads(trpc.notify.preferences.ensureData(), trpc.profile.get.ensureData());
  },
  component: NotificationsPage,
});

const LOAD_FAILED = 'This could not be loaded.';

function NotificationsPage() {
  const preferences = trpc.notify.preferences.useQuery();
  const profile = trpc.profile.get.useQuery();
  const prefActions = usePreferenceActions();
  const profileActions = useProfileActions();
  const keys = useKeysApi();
  const store = useE2eeStore();
  const changePassword = trpc.auth.changePassword.useMutation();
  const recovery = trpc.keys.recoveryStatus.useQuery();

  return (
    <>
      <PageHeader title="Notifications">
        <p>
          Choose how you are reminded and alerted, set quiet hours, add the phone number and devices that reach you, and manage your passkeys, password,
          encryption keys and storage.
        </p>
      </PageHeader>
      <div className="stack">
        <Card title="Preferences">
          {preferences.isPending ? (
            <Skeleton lines={5} label="Loading your preferences" />
          ) : preferences.isError ? (
            <ErrorState title={LOAD_FAILED} read={preferences} />
          ) : (
            <PreferencesForm value={preferences.data} timeZone={profile.data?.time_zone} onSave={prefActions.save} />
          )}
        </Card>
        <Card title="Profile">
          {profile.isPending ? (
            <Skeleton lines={3} label="Loading your profile" />
          ) : profile.isError ? (
            <ErrorState title={LOAD_FAILED} read={profile} />
          ) : (
            <ProfileForm profile={profile.data} onSave={profileActions.update} />
          )}
        </Card>
        <Card title="Phone number">
          {profile.isPending ? (
            <Skeleton lines={2} label="Loading your phone number" />
          ) : profile.isError ? (
            <ErrorState title={LOAD_FAILED} read={profile} />
          ) : (
            <PhoneSection
              profile={profile.data}
              onStart={profileActions.startPhone}
              onVerify={profileActions.verifyPhone}
              onRemove={profileActions.removePhone}
              pending={profileActions.phonePending}
            />
          )}
        </Card>
        <Card title="Push on this device">
          <PushSection />
        </Card>
        <Card title="Passkeys">
          <ConnectedPasskeysSection />
        </Card>
        <Card title={T.passwordTitle}>
          <PasswordSection mine={keys.mine} changePassword={(input) => changePassword.mutateAsync(input)} />
        </Card>
        <Card title={T.recoverySectionTitle}>
          {recovery.isPending ? (
            <Skeleton lines={2} label="Loading your recovery key status" />
          ) : recovery.isError ? (
            <ErrorState title={LOAD_FAILED} read={recovery} />
          ) : (
            <RecoveryKeySection
              status={recovery.data}
              makeNew={async (password) => {
                await makeNewRecoveryKey(keys, store, password);
                void recovery.refetch();
              }}
            />
          )}
        </Card>
        <Card title={T.storageTitle}>
          <StorageUsage />
        </Card>
      </div>
    </>
  );
}
