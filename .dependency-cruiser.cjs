// The shape of the code, checked by dependency-cruiser in `npm test`'s lint stage and `npm run lint`
// (docs/architecture.md "Which way dependencies point"). Any violation fails the stage.
/**
 * Which way dependencies between these domains point, decided (docs/architecture.md): the domain that owns a
 * fact is depended on, and the reaction is composed in worker/src/wiring/. Each pair is [owner, reactors]:
 * the owner imports none of its reactors.
 */
const DIRECTIONS = [
  ['legal', ['messages', 'voice', 'chat-import', 'deadman']],
  ['canary', ['webhooks', 'deadman', 'guardian', 'messages', 'owner-notices']],
  ['messages', ['vault', 'attachments', 'owner-notices']],
];

/** Domains every other may use and that use none: the storage meter and notifications (owner notices, preferences, push). */
const LEAVES = ['storage', 'notify'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...LEAVES.map((leaf) => ({
      name: `domain-leaf-${leaf}`,
      comment: `The ${leaf} domain is used by others and uses no other domain (types aside).`,
      severity: 'error',
      from: { path: `^worker/src/domains/${leaf}/` },
      to: { path: '^worker/src/domains/', pathNot: `^worker/src/domains/${leaf}/`, dependencyTypesNot: ['type-only'] },
    })),
    ...DIRECTIONS.filter(([, reactors]) => reactors.length).map(([owner, reactors]) => ({
      name: `domain-direction-${owner}`,
      comment: `The ${owner} domain is depended on by ${reactors.join(', ')}; it imports none of them (a reaction is wiring, worker/src/wiring/).`,
      severity: 'error',
      from: { path: `^worker/src/domains/${owner}/` },
      to: { path: `^worker/src/domains/(${reactors.join('|')})/`, dependencyTypesNot: ['type-only'] },
    })),
    {
      name: 'no-domain-cycle',
      comment:
        'Domains depend one way: the domain that owns a fact is depended on, the one that reacts depends on it. A reverse call is wiring (worker/src/wiring), not an import. Checked on modules: an import from one domain into another that leads back to the first.',
      severity: 'error',
      from: { path: '^worker/src/domains/([^/]+)/' },
      to: { path: '^worker/src/domains/', pathNot: '^worker/src/domains/$1/', circular: true },
    },
    {
      name: 'domains-import-no-wiring',
      comment: 'worker/src/wiring/ composes the domains; a domain that imported it would depend on every domain it composes.',
      severity: 'error',
      from: { path: '^worker/src/domains/' },
      to: { path: '^worker/src/wiring/' },
    },
    {
      name: 'web-imports-only-contracts',
      comment: "The web app shares the Worker's contracts (zod schemas, types) and the tRPC router's type, nothing else of the Worker.",
      severity: 'error',
      from: { path: '^web/src/' },
      to: { path: '^worker/src/', pathNot: ['^worker/src/contracts/', '^worker/src/wiring/trpc-router\\.ts$'] },
    },
    {
      name: 'db-imports-no-worker',
      comment: 'The schema and migrations stand alone: the Worker depends on db/, never the reverse.',
      severity: 'error',
      from: { path: '^db/' },
      to: { path: '^(worker|web)/' },
    },
    {
      name: 'contracts-import-no-domain',
      comment: 'Contracts are the shared language of server, OpenAPI and web: they import other contracts, zod and db types, no domain code.',
      severity: 'error',
      from: { path: '^worker/src/contracts/' },
      to: { path: '^worker/src/(domains|api|middleware|queues|durable|channels|trpc)/' },
    },
    {
      name: 'lib-imports-no-domain',
      comment: 'lib/ holds helpers that belong to no domain, so it cannot reach into one.',
      severity: 'error',
      from: { path: '^worker/src/lib/' },
      to: { path: '^worker/src/domains/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|\\.types|\\.wrangler)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'worker/tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mjs', '.js'],
    },
  },
};
