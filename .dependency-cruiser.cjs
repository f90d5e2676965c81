/**
 * The layout rules: every layer imports only from the layers below it (README, "What is in the
 * repository"). Arrows point one way, down to the contract and the spec model:
 *
 *   protocol            the contract: messages, schemas, issue categories, RPC codes, typed outcomes
 *   spec                the spec model: documents, semantics, the requirement manifest
 *   sdk                 the published SDKs (TypeScript; Python beside it)
 *   fixtures            fixture data and its loaders (the bundled trees, an upstream-layout tree)
 *   suites              the cases of the three levels and the upstream replay, and the kit they are written with
 *   fuzz                generators, properties, the fuzz driver and its findings
 *   harnesses           the reference harness (a table of rules), its mutants, hiders, chaos, examples
 *   results             the record union, the run stream, verdicts, claims, result.json, verify, merge
 *   reports             formatters of the result model
 *   runner/engine       runs the cases against an adapter and streams records to reporters
 *   runner              finalize and exit codes (composition above results and reports)
 *   runner/cli          the composition root
 */
const repo = '^(protocol|spec|sdk|fixtures|suites|fuzz|harnesses|results|reports|runner|bench|tests)/';
const only = (...layers) => `^(${layers.join('|')})/`;
const layer = (name, from, ...below) => ({
  name,
  severity: 'error',
  from: { path: from },
  to: { path: repo, pathNot: only(...below) },
});

module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', from: {}, to: { circular: true } },
    layer('protocol-imports-nothing-of-ours', '^protocol/', 'protocol'),
    layer('spec-model-on-the-contract', '^spec/', 'spec', 'protocol'),
    layer('sdk-on-the-contract-and-the-model', '^sdk/', 'sdk', 'spec', 'protocol'),
    layer('fixtures-on-the-model', '^fixtures/', 'fixtures', 'spec', 'protocol'),
    layer('suites-hold-cases-only', '^suites/', 'suites', 'fixtures', 'spec', 'protocol'),
    layer('fuzz-above-the-cases', '^fuzz/', 'fuzz', 'suites', 'fixtures', 'spec', 'protocol'),
    layer('harnesses-use-the-contract-and-the-model', '^harnesses/', 'harnesses', 'sdk', 'spec', 'protocol'),
    layer('results-read-records-not-cases', '^results/', 'results', 'spec', 'protocol'),
    layer('reports-only-format-results', '^reports/', 'reports', 'results', 'spec', 'protocol'),
    layer(
      'engine-emits-to-reporters-and-never-finalizes',
      '^runner/engine/',
      'runner/engine',
      'results',
      'harnesses',
      'fuzz',
      'suites',
      'fixtures',
      'sdk',
      'spec',
      'protocol',
    ),
    {
      name: 'runner-below-the-cli',
      severity: 'error',
      from: { path: '^runner/[^/]+\\.ts$' },
      to: { path: only('runner/cli', 'bench', 'tests') },
    },
    {
      name: 'only-tests-import-tests',
      severity: 'error',
      from: { path: repo, pathNot: '^tests/' },
      to: { path: '^tests/' },
    },
    {
      name: 'only-bench-imports-bench',
      severity: 'error',
      from: { path: repo, pathNot: '^bench/' },
      to: { path: '^bench/' },
    },
  ],
  options: {
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
  },
};
