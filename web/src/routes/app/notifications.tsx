import { createFileRoute } from '@tanstack/react-router';
import { NotBuiltPage } from '../../features/app-pages/not-built-page';

export const Route = createFileRoute('/app/notifications')({
  component: NotificationsPage,
});

function NotificationsPage() {
  return (
    <NotBuiltPage
      title="Notifications"
      intro="Choose how you are reminded, and set quiet hours."
      notice="Notification preferences are not available yet."
    />
  );
}
