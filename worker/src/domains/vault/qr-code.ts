import { renderSVG } from 'uqr';

/**
 * The QR code of a claim link as SVG (uqr: no dependencies, runs in workerd). Error correction M reads
 * through a crease or a smudge on a printed card; the 4-module quiet zone is the standard's.
 */
export function qrSvg(text: string): string {
  return renderSVG(text, { ecc: 'M', border: 4 });
}
