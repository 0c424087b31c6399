// Import cycles across services/*, packages/* and web/src, and imports running up the web's layers
// (`make cycles`, `make layers`, `npm run cycles`).
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
    // The web's layers, lowest first: api (calls, hooks, types), shared (components), routing (the
    // route table's types, the guard's and the menus' pure logic), features (pages), app (the
    // router, the shell, the table's assembly). An import may only run down or stay level.
    {
      name: "web-no-import-up-to-app",
      severity: "error",
      comment: "web/src/app/ assembles the features; nothing below it may import it (use web/src/routing/).",
      from: { path: "^web/src/(api|shared|routing|features)/" },
      to: { path: "^web/src/app/" },
    },
    {
      name: "web-no-import-up-to-features",
      severity: "error",
      comment: "The layers below the features (api, shared, routing) must not depend on a page.",
      from: { path: "^web/src/(api|shared|routing)/" },
      to: { path: "^web/src/features/" },
    },
    {
      name: "web-no-import-up-to-routing",
      severity: "error",
      comment: "api and shared sit below routing: the guard reads the session, not the reverse.",
      from: { path: "^web/src/(api|shared)/" },
      to: { path: "^web/src/routing/" },
    },
    {
      name: "web-no-import-up-to-shared",
      severity: "error",
      comment: "api is the lowest layer: shared components may use it, it may not use them.",
      from: { path: "^web/src/api/" },
      to: { path: "^web/src/shared/" },
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
