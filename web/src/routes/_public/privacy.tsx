import { createFileRoute, Link } from '@tanstack/react-router';
import { CONTACT_EMAIL, CONTACT_MAILTO } from '../../lib/links';
import { usePageTitle } from '../../lib/use-page-title';

export const Route = createFileRoute('/_public/privacy')({
  component: PrivacyPage,
});

function PrivacyPage() {
  usePageTitle('Privacy Policy');
  return (
    <article className="prose container narrow">
      <h1>Privacy Policy</h1>
      <p className="muted">What we collect, why, and the choices you have.</p>
      <h2>What we collect</h2>
      <p>
        Your email address, a hash of your password, your legal region and jurisdiction, your check-in times, and the messages and files you choose to store. We
        do not sell personal data and we do not use advertising trackers.
      </p>
      <h2>Why</h2>
      <p>
        To run your check-ins, to deliver your messages to the recipients you chose, to keep your account secure, and to meet the legal duties of your region
        (for example HIPAA in the United States or the GDPR in the European Union).
      </p>
      <h2>Encryption</h2>
      <p>Messages and vault items are encrypted for their intended recipients. Where you use end-to-end encryption, we cannot read the content.</p>
      <h2>Your rights</h2>
      <p>You can see, export and delete your data, and withdraw the consents you gave, from Data Consents in the app or by writing to us.</p>
      <h2>How long we keep data</h2>
      <p>
        While your account is active, and after 12 months of inactivity for a further 12-month export window before archival. Deletions you schedule are carried
        out on the date shown.
      </p>
      <h2>Contact</h2>
      <p>
        Privacy questions: <a href={CONTACT_MAILTO}>{CONTACT_EMAIL}</a>.
      </p>
      <p>
        <Link to="/">Back to home</Link>
      </p>
    </article>
  );
}
