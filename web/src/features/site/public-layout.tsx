import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { buttonClass } from '../../components/button';
import { useHydrated, useSignedIn } from '../../lib/use-hydrated';
import { SiteFooter } from './site-footer';

/**
 * The public frame. A visitor is offered "Sign in" and "Create account"; someone already signed in on this
 * browser (arriving from a memorial link or a release e-mail) is offered the way back into the app instead.
 */
export function PublicLayout({ children }: { children: ReactNode }) {
  const signedIn = useSignedIn();
  // Prerendered markup is built signed out: until hydration the session's links keep their place but stay
  // unseen, so someone signed in never sees "Sign in" flash (lib/use-hydrated.ts).
  const sessionLinkStyle = useHydrated() ? undefined : ({ visibility: 'hidden' } as const);
  return (
    <div className="public-layout">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <div className="site-header__inner">
          <Link to="/" className="brand">
            Afterword
          </Link>
          <nav aria-label="Main" className="site-header__nav">
            <Link to="/pricing">Pricing</Link>
            {signedIn ? (
              <Link to="/app" className={buttonClass('primary')} style={sessionLinkStyle}>
                Open Afterword
              </Link>
            ) : (
              <>
                <Link to="/login" style={sessionLinkStyle}>
                  Sign in
                </Link>
                <Link to="/signup" className={buttonClass('primary')} style={sessionLinkStyle}>
                  Create account
                </Link>
              </>
            )}
          </nav>
        </div>
      </header>
      <main id="main" className="public-main" tabIndex={-1}>
        {children}
      </main>
      <SiteFooter signedIn={signedIn} />
    </div>
  );
}
