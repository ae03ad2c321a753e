import { Link } from '@tanstack/react-router';
import { buttonClass } from '../../components/button';

/** Sign in / Create an account, for a public page whose next step needs a session (an invitation, a claim). */
export function SignInLinks() {
  return (
    <div className="button-row">
      <Link to="/login" className={buttonClass('primary')}>
        Sign in
      </Link>
      <Link to="/signup" className={buttonClass('secondary')}>
        Create an account
      </Link>
    </div>
  );
}
