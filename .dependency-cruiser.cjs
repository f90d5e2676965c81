/**
 * The layout rules: every layer imports only from the layers below it (README, "Layout").
 *
 *   adapters/protocol   the contract; imports nothing of ours
 *   adapters/sdk        the published SDK; the protocol only
 *   spec                document layer and the spec's semantics; the protocol only
 *   fixtures            fixture data and its one loader
 *   suites              the checks (levels, fuzz, upstream replay) and the requirement manifest
 *   adapters/*          the reference harness, its mutants, the chaos and example adapters
 *   results             the result model: records, verdicts, claims, result.json, verify, merge
 *   reports             formatters of the result model
 *   runner/engine       runs cases against an adapter and emits records to reporters
 *   runner              finalize and exit codes (composition above results and reports)
 *   runner/cli          the composition root
 */
const repo = '^(adapters|spec|fixtures|suites|results|reports|runner|bench|tests)/';
const not = (...layers) => `^(${layers.join('|')})/`;

module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'protocol-imports-nothing-of-ours',
      severity: 'error',
      from: { path: '^adapters/protocol/' },
      to: { path: repo, pathNot: '^adapters/protocol/' },
    },
    {
      name: 'sdk-depends-on-the-protocol-only',
      severity: 'error',
      from: { path: '^adapters/sdk/' },
      to: { path: repo, pathNot: '^adapters/(protocol|sdk)/' },
    },
    {
      name: 'spec-depends-on-the-protocol-only',
      severity: 'error',
      from: { path: '^spec/' },
      to: { path: repo, pathNot: '^(spec|adapters/protocol)/' },
    },
    {
      name: 'fixtures-below-suites',
      severity: 'error',
      from: { path: '^fixtures/' },
      to: { path: repo, pathNot: '^(fixtures|spec|adapters/protocol)/' },
    },
    {
      name: 'suites-below-adapters-results-and-runner',
      severity: 'error',
      from: { path: '^suites/' },
      to: { path: repo, pathNot: '^(suites|fixtures|spec|adapters/protocol)/' },
    },
    {
      name: 'harnesses-use-the-contract-and-the-spec-model',
      severity: 'error',
      from: { path: '^adapters/(reference|hiders|chaos|examples)/' },
      to: { path: repo, pathNot: '^(spec|adapters)/' },
    },
    {
      name: 'results-below-reports-and-runner',
      severity: 'error',
      from: { path: '^results/' },
      to: { path: repo, pathNot: '^(results|suites|fixtures|spec|adapters/protocol)/' },
    },
    {
      name: 'reports-only-read-results',
      severity: 'error',
      from: { path: '^reports/' },
      to: { path: repo, pathNot: '^(reports|results|suites|spec|adapters/protocol)/' },
    },
    {
      name: 'engine-emits-to-reporters-and-never-finalizes',
      severity: 'error',
      from: { path: '^runner/engine/' },
      to: { path: not('reports', 'runner/cli', 'runner/finalize\\.ts', 'bench', 'tests') },
    },
    {
      name: 'runner-below-the-cli',
      severity: 'error',
      from: { path: '^runner/[^/]+\\.ts$' },
      to: { path: not('runner/cli', 'bench', 'tests') },
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
