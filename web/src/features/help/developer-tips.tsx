import { Link } from '@tanstack/react-router';
import { Button } from '../../components/button';
import { API_DOCS_PATH, OPENAPI_PATH } from '../../lib/links';
import { copyText } from '../../lib/clipboard';

export const curlStatus = (origin: string) => `curl -H "Authorization: Bearer afw_test_…" ${origin}/api/canary/status`;
export const curlPing = (origin: string) => `curl -X POST ${origin}/api/ping/<token>`;
export const curlSimulateMiss = (origin: string) => `curl -X POST -H "Authorization: Bearer afw_test_…" ${origin}/api/sandbox/missed-checkins`;

/** A complete receiver: verify the raw body with the Standard Webhooks library before using it. */
export const VERIFY_SAMPLE = `// npm install standardwebhooks
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

const wh = new Webhook(process.env.AFTERWORD_WEBHOOK_SECRET); // "whsec_…"

createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    try {
      // The raw body, exactly as received, and the webhook-* headers.
      const event = wh.verify(body, req.headers);
      console.log(event.type, event.data.canary_id, event.data.misses);
      res.writeHead(204).end();
    } catch {
      res.writeHead(400).end(); // bad signature or too old: ignore it
    }
  });
}).listen(3000);`;

function Snippet({ label, code }: { label: string; code: string }) {
  return (
    <>
      <figure className="code-figure" aria-label={label}>
        <pre className="code-block">
          <code>{code}</code>
        </pre>
      </figure>
      <div className="button-row">
        <Button variant="secondary" onClick={() => void copyText(code, 'Copied')}>
          Copy<span className="visually-hidden"> {label}</span>
        </Button>
      </div>
    </>
  );
}

export function DeveloperTips({ origin }: { origin: string }) {
  return (
    <div className="help-topics">
      <section aria-labelledby="tips-keys">
        <h3 id="tips-keys">Call the API with a key</h3>
        <p>
          Create a key on the <Link to="/app/developer">Developer</Link> page, with only the scopes your script needs. Send it as a bearer token. A sandbox key
          (<code>afw_test_…</code>) works on your data but never sends a real delivery.
        </p>
        <Snippet label="Canary status with an API key" code={curlStatus(origin)} />
        <p>
          A key outside its scope gets 403 with the missing scope named, a revoked key 401, and past your plan’s monthly calls 429 with <code>Retry-After</code>
          .
        </p>
      </section>
      <section aria-labelledby="tips-ping">
        <h3 id="tips-ping">Check in from a cron job</h3>
        <p>
          Each canary has a ping URL that needs no key: a POST checks in. Copy its token on <Link to="/app/canary-status">Canary Status</Link> and keep it
          secret.
        </p>
        <Snippet label="Check in with a canary token" code={curlPing(origin)} />
      </section>
      <section aria-labelledby="tips-webhooks">
        <h3 id="tips-webhooks">Verify a webhook in Node</h3>
        <p>
          Events follow the Standard Webhooks specification, so the <code>standardwebhooks</code> package verifies them. Pass the body as the exact text you
          received, not re-serialised JSON; a wrong signature or an old timestamp throws.
        </p>
        <Snippet label="Webhook receiver in Node" code={VERIFY_SAMPLE} />
        <p>
          To test your receiver without missing a check-in, a sandbox key with <code>read:canary</code> can send the event your canary would send. It arrives
          signed, with <code>data.sandbox: true</code>; your canary, messages and recipients are not touched.
        </p>
        <Snippet label="Simulate a missed check-in with a sandbox key" code={curlSimulateMiss(origin)} />
      </section>
      <section aria-labelledby="tips-reference">
        <h3 id="tips-reference">API reference</h3>
        <p>
          Every call, its scope and its answers: <a href={API_DOCS_PATH}>the interactive API reference</a>, or the{' '}
          <a href={OPENAPI_PATH}>OpenAPI document (JSON)</a> for code generators.
        </p>
      </section>
    </div>
  );
}
