import { createFileRoute } from '@tanstack/react-router';
import { TextField } from '../../components/field';
import { usePageTitle } from '../../lib/use-page-title';

export const Route = createFileRoute('/_public/support')({
  component: SupportPage,
});

function SupportPage() {
  usePageTitle('Support Afterword');
  return (
    <div className="container narrow section stack">
      <div>
        <h1>Support Afterword</h1>
        <p>Afterword is built by a small team. Donations help keep messages safe for the long term.</p>
      </div>
      <section className="card" aria-labelledby="donate-title">
        <h2 id="donate-title">Donate</h2>
        {/* docs/product.md "Public pages": no submit behaviour; pressing Enter must not send anything. */}
        {/* method="dialog" outside a dialog submits nowhere, so Enter in the prerendered page (before the
            app hydrates and onSubmit exists) does not navigate either. */}
        <form method="dialog" onSubmit={(e) => e.preventDefault()} aria-describedby="donate-note">
          <TextField label="Amount (USD)" name="amount" type="number" inputMode="decimal" min={1} step="1" placeholder="25" />
        </form>
        <p id="donate-note" className="note">
          Donations are not open yet, so this form does not send anything or charge you. Thank you for thinking of us.
        </p>
      </section>
      <section className="card" aria-labelledby="nft-title">
        <h2 id="nft-title">NFT unlockables</h2>
        <p>
          Supporters will be able to collect commemorative artwork as NFT unlockables. They are a thank-you only: they grant no access to anyone's messages or
          data.
        </p>
      </section>
      <section className="card" aria-labelledby="perks-title">
        <h2 id="perks-title">Early-adopter perks</h2>
        <ul>
          <li>Your name in our supporters list, if you want it there.</li>
          <li>Early access to new features such as voice legacy and memorials.</li>
          <li>A say in what we build next.</li>
        </ul>
      </section>
    </div>
  );
}
