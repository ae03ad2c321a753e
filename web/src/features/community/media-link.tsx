/** Image addresses shown inline; anything else is a link. */
const IMAGE_PATH = /\.(png|jpe?g|gif|webp|avif)$/i;

/** The address when it is a plain https URL, else null: nothing else is ever put in an href or src. */
export function safeHttpsUrl(value: string | null | undefined): URL | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && !url.username && !url.password ? url : null;
  } catch {
    return null;
  }
}

/**
 * A post's media: an https image as an <img> (an image cannot run script; no referrer is sent to its
 * host), any other https address as a link that opens apart from this page. Anything else shows nothing.
 */
export function MediaLink({ url, label }: { url: string | null; label: string }) {
  const safe = safeHttpsUrl(url);
  if (!safe) return null;
  if (IMAGE_PATH.test(safe.pathname)) {
    return <img className="post-media" src={safe.href} alt={label} loading="lazy" referrerPolicy="no-referrer" />;
  }
  return (
    <a href={safe.href} target="_blank" rel="noopener noreferrer nofollow ugc">
      {safe.host}
      {safe.pathname.length > 1 ? safe.pathname : ''}
    </a>
  );
}
