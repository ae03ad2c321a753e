import { createFileRoute } from '@tanstack/react-router';
import { ForgotPasswordForm } from '../../features/e2ee/forgot-password-form';
import { T } from '../../features/e2ee/texts';
import { usePageTitle } from '../../lib/use-page-title';

export const Route = createFileRoute('/_public/forgot-password')({
  component: ForgotPasswordPage,
});

function ForgotPasswordPage() {
  usePageTitle('Forgot password');
  const { trpcClient } = Route.useRouteContext();
  return (
    <div className="auth-page">
      <h1>{T.forgotTitle}</h1>
      <p className="muted">{T.forgotIntro}</p>
      <ForgotPasswordForm request={(email) => trpcClient.auth.requestPasswordReset.mutate({ email })} />
    </div>
  );
}
