// Import cycles across services/*, packages/* and web/src (`make cycles`, `npm run cycles`).
// Workspace packages resolve through their node_modules symlinks to their sources, so a cycle
// that crosses packages (e.g. a service ↔ the kit) is found too. Type-only imports count: a
// cycle of types still ties the files together.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Import cycles make load order fragile and modules impossible to use alone (DESIGN.md).",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["(^|/)node_modules/", "(^|/)dist/", "^proto/gen/", "^\\.data/"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".json"],
      mainFields: ["module", "main", "types"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
