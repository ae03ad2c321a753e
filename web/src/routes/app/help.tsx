import { createFileRoute, Link } from '@tanstack/react-router';
import { Card } from '../../components/card';
import { PageHeader } from '../../features/app-pages/page-header';
import { CONTACT_EMAIL, CONTACT_MAILTO } from '../../lib/links';

export const Route = createFileRoute('/app/help')({
  component: HelpPage,
});

function HelpPage() {
  return (
    <>
      <PageHeader title="Help" />
      <div className="stack">
        <Card title="Getting started">
          <ol>
            <li>Create a canary: a check-in on a schedule you choose, such as every 24 hours.</li>
            <li>Write your messages and choose who receives each one.</li>
            <li>Check in before each deadline. If you miss one, delivery of your messages begins.</li>
          </ol>
          <p className="muted">Some of these parts are still being built; each screen says so where that is the case.</p>
        </Card>
        <Card title="Developer tips">
          <ul>
            <li>The API lives under <code>/api</code> and expects <code>Authorization: Bearer &lt;token&gt;</code>.</li>
            <li>API keys will have scopes (read:canary, read:messages, create:vault, webhook:death-verification) and a sandbox mode.</li>
            <li>Webhooks are signed with an HMAC secret; verify the signature before trusting a payload.</li>
          </ul>
        </Card>
        <Card title="Video">
          <p>
            A 43-second narrated introduction, with captions: <a href="/press/afterword-explainer.webm">watch the explainer video</a>, or see it on the <Link to="/press" hash="explainer-video">press page</Link>.
          </p>
        </Card>
        <Card title="Still stuck?">
          <p>Write to <a href={CONTACT_MAILTO}>{CONTACT_EMAIL}</a>. A person reads every message.</p>
        </Card>
      </div>
    </>
  );
}
