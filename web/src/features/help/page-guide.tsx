import { Link } from '@tanstack/react-router';
import { MORE_ITEMS, RECEIVED_ITEMS, SIDEBAR_ITEMS } from '../shell/nav-items';

type NavTo = (typeof SIDEBAR_ITEMS)[number]['to'] | (typeof RECEIVED_ITEMS)[number]['to'] | (typeof MORE_ITEMS)[number]['to'];

/**
 * One sentence per page of the navigation. Keyed by the navigation's own list, so a page added to the
 * sidebar without a sentence here does not compile (and page-guide.test.tsx reads every entry on the page).
 */
export const PAGE_HELP: Record<NavTo, string> = {
  '/app': 'Your check-ins at a glance: press Heartbeat to check in, see what is due next, and any warning that needs you.',
  '/app/messages': 'Every message you wrote, pending and sent, with when it will be released, its history and its delivery log.',
  '/app/create': 'Write a message with a recording or files, choose who receives it, how they are told, and the rules that release it.',
  '/app/voice-legacy': 'Record voice samples and train your voice profile; answer questions for your persona, locked until release.',
  '/app/voice-chat': 'Talk with your persona to try it, and with the personas of people who chose you, once released to you.',
  '/app/import': 'Upload an exported chat history and say which sender you are, so your persona learns your own words.',
  '/app/canary-status':
    'Create and remove canaries (check-in schedules), see each deadline, its ping URL and where each warning reached you, and test everything in a rehearsal.',
  '/app/consent': 'Choose what Afterword may do with your data, download all of it, or delete your account.',
  '/app/help': 'This page: how Afterword works, every page in one line, tips for your own tools and a short video.',
  '/app/inbox': 'What other people left for you, once released: messages, recordings, files and vault items.',
  '/app/vault': 'Files kept encrypted for a person and released on your death, each with a claim link and QR code for them.',
  '/app/guardian': 'The people who can confirm your death, and the people who chose you as their guardian.',
  '/app/contacts': 'People you know on Afterword: invite them by email, then pick them by name as recipients, heirs or guardians.',
  '/app/capsules': 'Confession capsules: anonymous letters that open to everyone on a date you choose.',
  '/app/memorial': 'Memorial pages for someone who died, with posts, photos and candles.',
  '/app/remembrances': 'Search what people wrote on memorials, by words or theme.',
  '/app/notifications': 'How you are reminded and warned, quiet hours, your phone and devices, your passkeys, your password and recovery key, and storage.',
  '/app/billing': 'Your plan, what you use of it against its limits, and upgrading it.',
  '/app/developer': 'API keys, webhooks and your monthly API quota, for connecting your own tools.',
};

/** Help → "Every page": the navigation's pages in its order, each with its sentence and a link. */
export function PageGuide() {
  const pages = [...SIDEBAR_ITEMS, ...RECEIVED_ITEMS, ...MORE_ITEMS];
  return (
    <dl className="page-guide">
      {pages.map((page) => (
        <div key={page.to}>
          <dt>
            <Link to={page.to}>{page.label}</Link>
          </dt>
          <dd>{PAGE_HELP[page.to]}</dd>
        </div>
      ))}
    </dl>
  );
}
