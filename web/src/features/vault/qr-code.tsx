import { T } from './texts';

/**
 * The item's QR code: an SVG the server draws of the claim link, public like the link itself, so a plain
 * <img> shows it. Addressed by its path: the page and the Worker share an origin (CSP img-src 'self'),
 * whatever public origin the server writes into links.
 */
export function QrCode({ url, name }: { url: string; name: string }) {
  const path = new URL(url, window.location.origin).pathname;
  return <img className="vault-qr" src={path} alt={T.qrAlt(name)} width={160} height={160} />;
}
