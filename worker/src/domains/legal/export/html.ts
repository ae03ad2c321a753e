import { humanTime } from '../../../lib/human-time';

/*
 * The pieces of the archive's readable pages (index.html, messages.html, …): self-contained HTML with its
 * CSS inline and no script, opened from the unzipped folder (file://), years later, without a network.
 * Everything a person typed goes through `esc`: a message body or a canary's name is text, never markup.
 */

export const esc = (value: unknown): string => String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Every date of the pages in one form, the one notices use ("Tue, 24 Nov 2026, 00:29 UTC"); blank stays "—". */
export function when(ms: unknown): string {
  return typeof ms === 'number' && Number.isFinite(ms) ? esc(humanTime(ms)) : '—';
}

/** A label and its value for a `<dl>`; `html` is already escaped. */
export const field = (label: string, html: string) => `<dt>${esc(label)}</dt><dd>${html}</dd>`;

/** A table with a header row; each cell is already escaped HTML. */
export function table(headers: readonly string[], rows: readonly (readonly string[])[], empty: string): string {
  if (rows.length === 0) return `<p class="empty">${esc(empty)}</p>`;
  const head = headers.map((h) => `<th scope="col">${esc(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('\n');
  return `<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** A link to a file of the archive, relative to the pages (which sit at its root). */
export const fileLink = (path: string, label = path) => `<a href="${esc(encodeURI(path))}">${esc(label)}</a>`;

const CSS = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#fafaf7}
header,main{max-width:60rem;margin:0 auto;padding:1rem 1.25rem}
nav a{margin-right:1rem}
h2{margin-top:2rem;border-bottom:1px solid #d4d4cf}
h3{margin:1.5rem 0 .25rem}
table{border-collapse:collapse;width:100%;font-size:14px}
th,td{padding:.3rem .6rem;text-align:left;vertical-align:top;border-bottom:1px solid #e2e2dc}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem;margin:.5rem 0}
dt{font-weight:600}
dd{margin:0}
article{background:#fff;border:1px solid #e2e2dc;border-radius:.5rem;padding:.25rem 1rem .75rem;margin:1rem 0}
.text{white-space:pre-wrap;background:#f4f4ef;border-radius:.25rem;padding:.5rem .75rem}
.sealed{background:#eef3ee;border-left:4px solid #2f4f3a;padding:.5rem .75rem}
.empty{color:#55554f}
code{font-size:12px;word-break:break-all}`;

/** The pages of an archive, in the order its navigation lists them. */
export interface PageLink {
  file: string;
  title: string;
}

export function pageStart(title: string, archiveTitle: string, nav: readonly PageLink[]): string {
  const links = nav.map((p) => `<a href="${esc(p.file)}">${esc(p.title)}</a>`).join('');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${esc(title)} — ${esc(archiveTitle)}</title>
<style>${CSS}</style></head>
<body>
<header><p><strong>${esc(archiveTitle)}</strong></p><nav aria-label="Pages of this archive">${links}</nav></header>
<main>
<h1>${esc(title)}</h1>
`;
}

export const PAGE_END = '</main>\n</body>\n</html>\n';
