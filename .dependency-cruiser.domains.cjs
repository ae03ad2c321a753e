// Domains as wholes, checked by dependency-cruiser in `npm test`'s lint stage and `npm run lint`, after
// .dependency-cruiser.cjs (docs/architecture.md "Which way dependencies point"). That one checks modules;
// this one counts a folder under worker/src/domains as depending on another if any of its files imports
// one of the other's at run time, and allows no cycle among them: two domains that each use the other
// (through different files) fail here although no single chain of modules loops. Type-only imports are
// left out (`tsPreCompilationDeps: false`: TypeScript erases them), and so is everything outside the
// domains: the wiring that composes them (worker/src/wiring/) may use any domain.
const base = require('./.dependency-cruiser.cjs');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-domain-folder-cycle',
      comment:
        'Domains depend one way as wholes: the domain that owns a fact is depended on, the one that reacts depends on it; a reaction the owner needs is composed in worker/src/wiring/.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^worker/src/domains/' },
      to: { path: '^worker/src/domains/', circular: true },
    },
  ],
  options: { ...base.options, tsPreCompilationDeps: false, includeOnly: '^worker/src/domains/' },
};
