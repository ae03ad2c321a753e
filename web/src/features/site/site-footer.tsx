import { Link } from '@tanstack/react-router';
import { CONTACT_EMAIL, CONTACT_MAILTO } from '../../lib/links';

export function SiteFooter({ signedIn = false }: { signedIn?: boolean }) {
  return (
    <footer className="site-footer">
      <nav aria-label="Footer" className="site-footer__inner">
        <ul className="site-footer__links">
          <li>
            <Link to="/pricing">Pricing</Link>
          </li>
          {signedIn ? (
            <li>
              <Link to="/app">Open Afterword</Link>
            </li>
          ) : (
            <>
              <li>
                <Link to="/login">Sign in</Link>
              </li>
              <li>
                <Link to="/signup">Create account</Link>
              </li>
            </>
          )}
          <li>
            <Link to="/status">Service status</Link>
          </li>
          <li>
            <Link to="/support">Support us</Link>
          </li>
          <li>
            <Link to="/press">Press</Link>
          </li>
          <li>
            <Link to="/terms">Terms</Link>
          </li>
          <li>
            <Link to="/privacy">Privacy</Link>
          </li>
          <li>
            <a href={CONTACT_MAILTO}>Contact: {CONTACT_EMAIL}</a>
          </li>
        </ul>
        <p className="muted">© {new Date().getFullYear()} Afterword</p>
      </nav>
    </footer>
  );
}
