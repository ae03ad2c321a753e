import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { toast } from '../../components/toast';
import { SignupForm } from '../../features/auth/signup-form';
import { usePageTitle } from '../../lib/use-page-title';
import { keepSignedUpEmail } from '../../features/auth/signed-up-email';

export const Route = createFileRoute('/_public/signup')({
  component: SignupPage,
});

function SignupPage() {
  usePageTitle('Create account');
  const navigate = useNavigate();
  const { trpcClient } = Route.useRouteContext();
  return (
    <div className="auth-page">
      <h1>Create your account</h1>
      <p className="muted">Your region decides which data-protection rules apply. You can add messages after you sign in.</p>
      <SignupForm
        register={(input) => trpcClient.auth.register.mutate(input)}
        onRegistered={(email) => {
          keepSignedUpEmail(email);
          toast.success('Account created. Please sign in.');
          void navigate({ to: '/login' });
        }}
      />
    </div>
  );
}
