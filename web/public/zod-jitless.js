// Loaded before the app's modules (index.html): zod reads this global config when its first schema is built.
// The Content-Security-Policy allows no eval, and zod's JIT probe (`new Function`) is reported as a CSP
// violation on every page even though zod catches it; jitless zod parses the same way without the probe.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
