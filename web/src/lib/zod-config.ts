import { z } from 'zod';

/**
 * The app's Content-Security-Policy allows no eval (web/public/_headers). Zod probes for it with `new Function`
 * before compiling a fast object parser, and the browser reports that probe as a CSP violation on every page even
 * though zod catches it. Jitless zod parses the same way without the probe. Imported first by main.tsx.
 */
z.config({ jitless: true });
