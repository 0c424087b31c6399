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
      testMatch: ["<rootDir>/services/*/test/**/*.int.test.ts"],
    },
    {
      ...base,
      displayName: "e2e",
      testMatch: ["<rootDir>/e2e/**/*.e2e.test.ts"],
    },
  ],
};
