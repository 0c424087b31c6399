// Bundles each service's src/main.ts into dist/main.js (ESM), and its telemetry preload into
// dist/instrument.js. Our workspace packages (@crafter/*)
// are bundled in; every other package stays an import from node_modules.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const only = process.argv.slice(2);
const services = readdirSync("services").filter(
  (name) => existsSync(join("services", name, "src/main.ts")) && (only.length === 0 || only.includes(name)),
);

const externalPackages = {
  name: "external-packages",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@crafter/") ? undefined : { path: args.path, external: true },
    );
  },
};

const common = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node24",
  sourcemap: true,
  logLevel: "warning",
  plugins: [externalPackages],
};

const started = performance.now();
await Promise.all(
  services.flatMap((name) => [
    build({
      ...common,
      entryPoints: [join("services", name, "src/main.ts")],
      outfile: join("services", name, "dist/main.js"),
    }),
    // dist/instrument.js starts OpenTelemetry before main.js loads: node --import ./dist/instrument.js dist/main.js
    build({
      ...common,
      stdin: {
        contents: `import { preloadTelemetry } from "./services/kit/src/telemetry/preload";\npreloadTelemetry(${JSON.stringify(name)});\n`,
        resolveDir: process.cwd(),
        sourcefile: `services/${name}/instrument.ts`,
        loader: "ts",
      },
      outfile: join("services", name, "dist/instrument.js"),
    }),
  ]),
);
console.log(`built ${services.join(", ")} in ${Math.round(performance.now() - started)} ms`);
