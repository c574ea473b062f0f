// @ts-check
/**
 * The one-way rule of docs/architecture.md (the plan: ../shared/design/architecture.md, "The
 * house as it stands"), failing closed: every dependency of a module under src/ (import,
 * side-effect import, `export … from`, `require`, `import()`, type-only imports included) must
 * match one `allowed` rule below, or it is a `not-in-allowed` error. So an import that no rule
 * classifies (a new package, a new top-level folder) fails until a rule says where it may go.
 * The `forbidden` rules then cut what the floors alone would let through. Checked by
 * `npm run lint:deps` and test/architecture/dependency-rule.test.ts, which also cruises
 * test/architecture/fixtures/crossings/ to prove that each rule catches its crossing.
 *
 *   shared <- store <- workers <- engines/jobs/conversations <- webhooks <- service <- main;  preload and renderer import only shared.
 *
 * Cuts: webhooks never imports jobs (a job's webhook is written through the outbox the
 * service hands the runner); main never imports store (the desktop's key policy is a runtime
 * option); service/ops never imports service/http (use cases know no transport); no circular
 * imports. Inside store, the engines (store/sqlite, store/postgres) are reached only through the
 * port (store/ports.ts) and store/open-store.ts: no layer above names an engine.
 */

/** The layers each layer may import (itself included). engines are pure: no store. */
const LAYERS = {
  shared: ['shared'],
  store: ['shared', 'store'],
  // The loop every kind of leased work shares (the job runner, the webhook sender), and lease ownership.
  workers: ['shared', 'store', 'workers'],
  engines: ['shared', 'engines'],
  jobs: ['shared', 'store', 'workers', 'engines', 'jobs'],
  // Live calls, beside jobs: engines and the store port, no HTTP; their webhooks are written through an injected writer.
  conversations: ['shared', 'store', 'workers', 'engines', 'conversations'],
  // Not jobs: the outbox takes the job record it is handed (the runner calls it through an injected hook).
  webhooks: ['shared', 'store', 'workers', 'engines', 'webhooks'],
  service: ['shared', 'store', 'workers', 'engines', 'jobs', 'conversations', 'webhooks', 'service'],
  // Not store: the Electron shell passes its choices (data folder, keychain) to the runtime, which opens the store.
  main: ['shared', 'workers', 'engines', 'jobs', 'conversations', 'webhooks', 'service', 'main'],
  preload: ['shared', 'preload'],
  renderer: ['shared', 'renderer'],
}

/** Node's built-in modules: everywhere but the leaf and the two browser-side worlds. */
const NODE_LAYERS = ['store', 'workers', 'engines', 'jobs', 'conversations', 'webhooks', 'service', 'main']

/**
 * npm packages: where each may be imported. A package missing here may be imported nowhere in
 * src/: so the test-only ones (swagger-parser, openapi-schema-validator, @asyncapi/parser,
 * openapi-typescript, openapi-fetch) are kept out of the product.
 */
const PACKAGES = [
  { packages: ['zod'], from: '^src/' },
  // The SQL drivers stay behind the storage port, each in its own engine's folder.
  { packages: ['better-sqlite3'], from: '^src/store/sqlite/' },
  { packages: ['pg'], from: '^src/store/postgres/' },
  // The HTTP framework and its plugins stay in the HTTP adapter.
  { packages: ['fastify', '@fastify/[^/]+', 'fastify-type-provider-zod', 'secure-json-parse', 'range-parser'], from: '^src/service/http/' },
  // The WebSocket library under @fastify/websocket, named for its socket type by the call stream route.
  // And by the test runner's simulated callers, which call the service's own /stream as the SDK does.
  { packages: ['ws'], from: '^src/service/(http|test-runs)/' },
  // Outgoing HTTP with the address policy: webhooks, and media fetched from a URL.
  { packages: ['undici'], from: '^src/(webhooks|service/media-intake)/' },
  // Address checks: the Host allow-list (HTTP) and the webhook target policy (arriving from another branch).
  { packages: ['ipaddr\\.js'], from: '^src/(service/http|webhooks)/' },
  { packages: ['@echogarden/espeak-ng-emscripten'], from: '^src/engines/tts/' },
  // Numbers in English words for the voice (speakable-text).
  { packages: ['to-words'], from: '^src/engines/tts/' },
  // Sentences shared by calls, kept least recently used first out.
  { packages: ['lru-cache'], from: '^src/engines/tts/shared-speech\\.ts$' },
  // Audio for live calls: resampling, voice activity (the voice band's FFT), pitch (engines are pure: no store, no HTTP).
  { packages: ['@echogarden/fvad-wasm', '@echogarden/speex-resampler-wasm', 'pitchfinder', 'fft\\.js'], from: '^src/engines/' },
  // The dialogue: outcomes checked against the agent's shape, enum members matched by edit distance.
  { packages: ['ajv', 'fastest-levenshtein'], from: '^src/engines/' },
  // English word stems for answering a caller's question from the agent's preamble (dialogue/off-topic.ts).
  { packages: ['stemmer'], from: '^src/engines/dialogue/' },
  { packages: ['pino'], from: '^src/(service|main)/' },
  { packages: ['env-paths', 'libphonenumber-js'], from: '^src/service/' },
  // State archives (.tar.gz): written and read by the state feature only.
  { packages: ['tar-stream'], from: '^src/service/state/' },
  // HAR 1.2's type definitions (types only) for the request journal's HAR export.
  { packages: ['@types/har-format'], from: '^src/service/request-journal/' },
  // Path globs of fault-injection rules.
  { packages: ['picomatch'], from: '^src/service/faults/' },
  // JUnit XML of a test run, written by `voicedesk test-agent --junit` only.
  { packages: ['xmlbuilder2'], from: '^src/service/cli/test-agent\\.ts$' },
  // The SIP line: SIP messages and transactions (sip), SDP (sdp-transform), RTP packets (rtp.js), G.711 (alawmulaw).
  { packages: ['sip', 'sdp-transform', '@types/sdp-transform', 'rtp\\.js', 'alawmulaw'], from: '^src/service/sip/' },
  { packages: ['electron'], from: '^src/(main|preload)/' },
  { packages: ['react', 'react-dom', 'zustand', '@tanstack/[^/]+', '@visx/[^/]+'], from: '^src/renderer/' },
  // Line diffs of an agent's texts, a version against now (the History tab): its one pure helper.
  { packages: ['diff'], from: '^src/renderer/src/lib/agent-version-diff\\.ts$' },
]

/**
 * Rooms inside src/service (issue 24), forbidden arrows on top of the layers above:
 *   runtime.ts, cli.ts + cli/  the entry points; they (and the desktop, src/main) alone reach compose/;
 *   compose/                   the wiring: storage, engines, workers, calls, operator bridge, HTTP;
 *   http/                      the HTTP transport (/v1, admin, browser mode's /ipc carrier);
 *   sip/                       the SIP line, a transport of calls beside http/ (phone calls to registered numbers);
 *   operator/                  the operator UI's handler table, carried by http/ and by Electron's IPC (src/main);
 *   ops/, settings/            use cases and settings use cases, shared by both transports;
 *   state/, faults/, request-journal/, media-intake/  features the use cases and transports call.
 * Each rule has a planted crossing in test/architecture/fixtures/service-rooms that must fail.
 */
const SERVICE_ENTRY_POINTS = '^src/(service/(runtime\\.ts$|cli\\.ts$|cli/|compose/)|main/)'
const SERVICE_BELOW_TRANSPORTS = '^src/service/(ops|settings|state|faults|request-journal|media-intake)/'
const SERVICE_ROOM_RULES = [
  {
    name: 'service-compose-from-entry-points',
    comment: 'The wiring (compose/, runtime.ts) is reached only from the entry points: runtime.ts, the CLI and the desktop.',
    severity: 'error',
    from: { path: '^src/', pathNot: SERVICE_ENTRY_POINTS },
    to: { path: '^src/service/(compose/|runtime\\.ts$)' },
  },
  {
    name: 'service-transports-apart',
    comment: 'The transports do not reach into each other: the operator bridge, the SIP line and the desktop never import http/.',
    severity: 'error',
    from: { path: '^src/(service/(operator|sip)|main)/' },
    to: { path: '^src/service/http/' },
  },
  {
    name: 'service-sip-line-apart',
    comment: 'The SIP line is a transport of its own: HTTP, the operator bridge and the desktop never import sip/ (the wiring joins them).',
    severity: 'error',
    from: { path: '^src/(service/(http|operator)|main)/' },
    to: { path: '^src/service/sip/' },
  },
  {
    name: 'service-use-cases-below-transports',
    comment:
      'Use cases, settings and features never import a transport, the operator bridge, the CLI or the wiring (ops -> http has its own rule beside the layer rules).',
    severity: 'error',
    from: { path: SERVICE_BELOW_TRANSPORTS },
    to: { path: '^src/service/(operator/|sip/|cli/|compose/|cli\\.ts$|runtime\\.ts$)' },
  },
  {
    name: 'service-settings-not-http',
    comment: 'Settings use cases and features never import the HTTP transport.',
    severity: 'error',
    from: { path: '^src/service/(settings|state|faults|request-journal|media-intake)/' },
    to: { path: '^src/service/http/' },
  },
]

const packagePath = (names) => `(^|/)node_modules/(${names.join('|')})/`

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  allowedSeverity: 'error',
  allowed: [
    ...Object.entries(LAYERS).map(([layer, targets]) => ({
      comment: `${layer} imports only ${targets.join(', ')}`,
      from: { path: `^src/${layer}/` },
      to: { path: `^src/(${targets.join('|')})/`, dependencyTypes: ['local'] },
    })),
    {
      comment: 'Node built-ins, outside shared, preload and renderer',
      from: { path: `^src/(${NODE_LAYERS.join('|')})/` },
      to: { dependencyTypes: ['core'] },
    },
    ...PACKAGES.map(({ packages, from }) => ({
      comment: `${packages.join(', ')} from ${from}`,
      from: { path: from },
      to: { path: packagePath(packages), dependencyTypes: ['npm', 'npm-dev'] },
    })),
    {
      // The runtime composes the HTTP app and holds it by its type; it never calls Fastify itself.
      comment: 'compose/ names FastifyInstance (a type-only import)',
      from: { path: '^src/service/compose/' },
      to: { path: packagePath(['fastify']), dependencyTypes: ['type-only'] },
    },
    {
      comment: 'the runtime reads its version from package.json',
      from: { path: '^src/service/compose/config\\.ts$' },
      to: { path: '^package\\.json$' },
    },
  ],
  forbidden: [
    ...SERVICE_ROOM_RULES,
    {
      name: 'engine-behind-the-port',
      comment: 'Only store/ itself (open-store.ts, and each engine its own folder) names a storage engine; the rest use ports.ts.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/store/' },
      to: { path: '^src/store/(sqlite|postgres)/' },
    },
    {
      name: 'ops-without-http',
      comment: 'Use cases (service/ops) serve both transports (HTTP and IPC): they never import the HTTP adapter.',
      severity: 'error',
      from: { path: '^src/service/ops/' },
      to: { path: '^src/service/http/' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycle, type-only ones included (the renderer store has its own rule below).',
      severity: 'error',
      from: { pathNot: '^src/renderer/src/store/' },
      to: { circular: true },
    },
    {
      // zustand's slices pattern: each slice names the whole state it reads (a type), and the
      // store joins the slices. That cycle is types only; one of values would be an error.
      name: 'no-circular-at-run-time',
      comment: 'In the renderer store, a cycle must pass through a type-only import.',
      severity: 'error',
      from: { path: '^src/renderer/src/store/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing cannot be classified.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Type-only imports count: a type from a layer above is still an upward arrow.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.node.json' },
    doNotFollow: { path: 'node_modules' },
    moduleSystems: ['es6', 'cjs', 'tsd'],
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
    skipAnalysisNotInRules: false,
  },
}
