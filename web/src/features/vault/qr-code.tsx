import { useQuery } from '@tanstack/react-query';
import { Skeleton } from '../../components/skeleton';
import { T } from './texts';
import { fetchQrCode } from './vault-api';

/**
 * The item's QR code (an SVG the server draws of the claim link). Fetched with the session rather than
 * pointed at by <img src>: the image is the owner's only, and an <img> request carries no bearer header.
 */
export function QrCode({ url, name }: { url: string; name: string }) {
  const qr = useQuery({ queryKey: ['vault', 'qr', url], queryFn: ({ signal }) => fetchQrCode(url, signal), staleTime: Number.POSITIVE_INFINITY });
  const src = qr.data;
  if (qr.isError) return <p className="muted">{T.qrFailed}</p>;
  if (!src) return <Skeleton lines={2} label={`Loading the QR code for ${name}`} />;
  return <img className="vault-qr" src={src} alt={T.qrAlt(name)} width={160} height={160} />;
}
