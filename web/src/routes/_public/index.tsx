import { createFileRoute, Link } from '@tanstack/react-router';
import { buttonClass } from '../../components/button';
import { LandingFaq } from '../../features/site/landing-faq';
import { usePageTitle } from '../../lib/use-page-title';

export const Route = createFileRoute('/_public/')({
  component: LandingPage,
});

const STEPS = [
  { title: 'Write what matters', body: 'Prepare messages, recordings and documents for the people you choose. They are encrypted for those recipients.' },
  { title: 'Check in on your schedule', body: 'Set a check-in, called a canary: every day, every week, or whatever suits you. One tap confirms you are okay.' },
  { title: 'If you stop, we deliver', body: 'If a check-in is missed, your messages go to the people you chose, at the time and in the way you decided.' },
];

const AUDIENCES = [
  { title: 'People planning ahead', body: 'Parents, partners and friends who want the right words to reach the right people.' },
  { title: 'People who travel or live alone', body: 'A quiet safety net that speaks up only if you go silent.' },
  { title: 'Families keeping memories', body: 'Voice recordings, letters and memorials, kept safely and shared with care.' },
];

function LandingPage() {
  usePageTitle('');
  return (
    <>
      <section className="hero" aria-labelledby="hero-title">
        <div className="container">
          <h1 id="hero-title" className="hero__title">
            Words for the people you love, kept safe until they are needed.
          </h1>
          <p className="hero__lead">
            Afterword holds your messages and delivers them to the people you choose if you stop checking in. Nothing is released while you keep confirming that
            you are okay.
          </p>
          <div className="hero__actions">
            <Link to="/signup" className={buttonClass('primary')}>
              Create your account
            </Link>
            <Link to="/pricing" className={buttonClass('secondary')}>
              See pricing
            </Link>
          </div>
        </div>
      </section>

      <section className="section container" aria-labelledby="how-title">
        <h2 id="how-title">How it works</h2>
        <ol className="steps">
          {STEPS.map((step, i) => (
            <li key={step.title} className="card">
              <p className="steps__number" aria-hidden="true">
                {i + 1}
              </p>
              <h3>{step.title}</h3>
              <p>{step.body}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="section container" aria-labelledby="who-title">
        <h2 id="who-title">Who it is for</h2>
        <ul className="tiles">
          {AUDIENCES.map((a) => (
            <li key={a.title} className="card">
              <h3>{a.title}</h3>
              <p>{a.body}</p>
            </li>
          ))}
        </ul>
      </section>

      <LandingFaq />
    </>
  );
}
