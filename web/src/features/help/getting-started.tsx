import { Link } from '@tanstack/react-router';

/** The five ideas a new user needs, each pointing at the page where it happens. */
export function GettingStarted() {
  return (
    <div className="help-topics">
      <section aria-labelledby="help-checkins">
        <h3 id="help-checkins">Check-ins</h3>
        <p>
          A check-in is a periodic confirmation that you are okay. Press Heartbeat on the <Link to="/app">Dashboard</Link>, or let a script do it for you. If a
          deadline passes without one, delivery of your messages begins.
        </p>
      </section>
      <section aria-labelledby="help-canaries">
        <h3 id="help-canaries">Canaries</h3>
        <p>
          A canary is one check-in schedule, such as every 24 hours. Create and remove them on <Link to="/app/canary-status">Canary Status</Link>. Each has its
          own secret ping URL for cron jobs. When less than 20 percent of the interval is left, it shows Grace; once the deadline has passed, Missed.
        </p>
      </section>
      <section aria-labelledby="help-messages">
        <h3 id="help-messages">Messages and rules</h3>
        <p>
          <Link to="/app/create">Create a message</Link> for a person with an Afterword account, choose how it reaches them (email, SMS, call or push), and
          when: on a date, after a number of missed check-ins, or some days after a death is confirmed. A rule can expire if you check in within its window.{' '}
          <Link to="/app/messages">My Messages</Link> lists what is pending and sent, each with its delivery log.
        </p>
      </section>
      <section aria-labelledby="help-inbox">
        <h3 id="help-inbox">Your recipients’ inbox</h3>
        <p>
          When a message is released, its recipient is told on the channel you chose and can read it in their <Link to="/app/inbox">Inbox</Link> after signing
          in. Nothing is visible to them before that.
        </p>
      </section>
      <section aria-labelledby="help-encryption">
        <h3 id="help-encryption">Encryption and the recovery key</h3>
        <p>
          With end-to-end encryption, a message is encrypted in your browser for its recipient’s key: Afterword stores it but cannot read it. Your private key
          is locked with your password. When your keys are created you are shown a <strong>recovery key once</strong>: keep it offline or in a password manager.
          It is the only way to keep your encrypted messages readable if you forget your password. Change your password on{' '}
          <Link to="/app/notifications">Notifications</Link>.
        </p>
      </section>
    </div>
  );
}
