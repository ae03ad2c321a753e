import { Link } from '@tanstack/react-router';
import { buttonClass } from '../../components/button';
import { usePageTitle } from '../../lib/use-page-title';

/**
 * An address with no page. Under /app it renders inside the app shell (routes/app.tsx), elsewhere
 * inside the public layout (routes/__root.tsx); a signed-in person is pointed back to their dashboard.
 */
export function NotFoundContent({ signedIn }: { signedIn: boolean }) {
  usePageTitle('Page not found');
  return (
    <div className="not-found narrow">
      <h1>Page not found</h1>
      <p className="muted">There is nothing at this address. The link may be old, or a letter may be missing.</p>
      <p>
        {signedIn ? (
          <Link to="/app" className={buttonClass('primary')}>
            Go to your dashboard
          </Link>
        ) : (
          <Link to="/" className={buttonClass('primary')}>
            Back to home
          </Link>
        )}
      </p>
    </div>
  );
}
