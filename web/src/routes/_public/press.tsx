import { createFileRoute } from '@tanstack/react-router';
import { ExplainerVideo } from '../../features/site/explainer-video';
import { CONTACT_EMAIL, CONTACT_MAILTO, PITCH_DECK_PATH } from '../../lib/links';
import { usePageTitle } from '../../lib/use-page-title';

export const Route = createFileRoute('/_public/press')({
  component: PressPage,
});

function PressPage() {
  usePageTitle('Press');
  return (
    <div className="container narrow section stack">
      <div>
        <h1>Press</h1>
        <p>Afterword is a check-in service that delivers prepared messages to chosen people if its user stops confirming they are okay.</p>
      </div>
      <section className="card" aria-labelledby="deck-title">
        <h2 id="deck-title">Pitch deck</h2>
        <p>
          <a href={PITCH_DECK_PATH} download>
            Download the Afterword pitch deck (PDF)
          </a>
        </p>
      </section>
      <section className="card" id="explainer-video" aria-labelledby="video-title">
        <h2 id="video-title">Explainer video</h2>
        <ExplainerVideo />
      </section>
      <section className="card" aria-labelledby="resources-title">
        <h2 id="resources-title">Resources</h2>
        <ul>
          <li>Short description: "Afterword keeps your words safe until the people you love need them."</li>
          <li>
            Press enquiries: <a href={CONTACT_MAILTO}>{CONTACT_EMAIL}</a>
          </li>
        </ul>
      </section>
    </div>
  );
}
