import { createFileRoute, Link } from '@tanstack/react-router';
import { CONTACT_EMAIL, CONTACT_MAILTO } from '../../lib/links';
import { usePageTitle } from '../../lib/use-page-title';

export const Route = createFileRoute('/_public/terms')({
  component: TermsPage,
});

function TermsPage() {
  usePageTitle('Terms of Service');
  return (
    <article className="prose container narrow">
      <h1>Terms of Service</h1>
      <p className="muted">These terms apply to everyone who uses Afterword.</p>
      <h2>The service</h2>
      <p>
        Afterword stores messages and files you prepare and delivers them to recipients you name when a condition you set is met, such as a missed check-in or a
        date. You are responsible for choosing recipients and conditions carefully.
      </p>
      <h2>Your account</h2>
      <p>Keep your password private. You must be old enough to enter a contract where you live. One account per person.</p>
      <h2>Your content</h2>
      <p>
        You own what you store. You give us permission to store, encrypt and deliver it only as you instruct. Do not store anything unlawful or anything you do
        not have the right to share.
      </p>
      <h2>Delivery</h2>
      <p>
        We work hard to deliver on time, but email, SMS and phone networks are outside our control. Afterword is not an emergency service and is not a
        substitute for a will or legal advice.
      </p>
      <h2>Payments and inactivity</h2>
      <p>
        Paid plans renew as shown at checkout. We never delete an account for a missed payment. After 12 months of inactivity you get a free 12-month window to
        export your data before it is archived.
      </p>
      <h2>Ending your account</h2>
      <p>You can stop using Afterword at any time and ask us to delete your data. We may suspend accounts that break these terms.</p>
      <h2>Contact</h2>
      <p>
        Questions about these terms: <a href={CONTACT_MAILTO}>{CONTACT_EMAIL}</a>.
      </p>
      <p>
        <Link to="/">Back to home</Link>
      </p>
    </article>
  );
}
