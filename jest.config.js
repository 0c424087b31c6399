// One jest run, three projects: unit (pure logic, no servers), integration (real servers from
// scripts/infra and the stack from scripts/stack), e2e (the stack in Debian's Chromium).
const swc = [
  "@swc/jest",
  {
    jsc: {
      parser: { syntax: "typescript", tsx: true },
      transform: { react: { runtime: "automatic" } },
      target: "es2022",
    },
    module: { type: "es6" },
  },
];

const base = {
  testEnvironment: "node",
  extensionsToTreatAsEsm: [".ts", ".tsx"],
  transform: { "^.+\\.(t|j)sx?$": swc },
  modulePathIgnorePatterns: ["<rootDir>/.data/", "/dist/"],
};

/** @type {import('jest').Config} */
export default {
  // Besides the console, each run writes JUnit XML to test-results/ (one file per run), which CI
  // reads and scripts/ci/test-summary.mjs totals at the end of `make test`.
  reporters: [
    "default",
    [
      "jest-junit",
      { outputDirectory: "test-results", uniqueOutputName: "true", suiteNameTemplate: "{displayName} {filepath}" },
    ],
  ],
  projects: [
    {
      ...base,
      displayName: "unit",
      testMatch: [
        "<rootDir>/packages/*/test/**/*.test.ts",
        "<rootDir>/services/*/test/**/*.test.ts",
        "<rootDir>/web/src/**/*.test.ts?(x)",
      ],
      testPathIgnorePatterns: ["\\.int\\.test\\.ts$", "\\.e2e\\.test\\.ts$"],
    },
    {
      ...base,
      displayName: "integration",
      testMatch: [
        "<rootDir>/services/*/test/**/*.int.test.ts",
        "<rootDir>/packages/*/test/**/*.int.test.ts",
        // The Zapier app's tests (zapier-platform-core's appTester) against the gateway.
        "<rootDir>/integrations/*/test/**/*.int.test.ts",
      ],
    },
    {
      ...base,
      displayName: "e2e",
      testMatch: ["<rootDir>/e2e/**/*.e2e.test.ts"],
    },
  ],
};
