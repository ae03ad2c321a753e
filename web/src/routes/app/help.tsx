import { createFileRoute } from '@tanstack/react-router';
import { Card } from '../../components/card';
import { PageHeader } from '../../features/app-pages/page-header';
import { DeveloperTips } from '../../features/help/developer-tips';
import { GettingStarted } from '../../features/help/getting-started';
import { PageGuide } from '../../features/help/page-guide';
import { ExplainerVideo } from '../../features/site/explainer-video';
import { CONTACT_EMAIL, CONTACT_MAILTO } from '../../lib/links';

export const Route = createFileRoute('/app/help')({
  component: HelpPage,
});

function HelpPage() {
  return (
    <>
      <PageHeader title="Help">
        <p>How Afterword works, what each page is for, how to connect your own tools, and a short video.</p>
      </PageHeader>
      <div className="stack">
        <Card title="Getting started">
          <GettingStarted />
        </Card>
        <Card title="Every page">
          <PageGuide />
        </Card>
        <Card title="Developer tips">
          <DeveloperTips origin={window.location.origin} />
        </Card>
        <Card title="Video" id="video">
          <ExplainerVideo />
        </Card>
        <Card title="Still stuck?">
          <p>
            Write to <a href={CONTACT_MAILTO}>{CONTACT_EMAIL}</a>. A person reads every message.
          </p>
        </Card>
      </div>
    </>
  );
}
