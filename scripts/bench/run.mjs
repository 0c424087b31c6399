#!/usr/bin/env node
// Bundles one benchmark of scripts/bench (TypeScript, importing @crafter/kit) with esbuild, as
// scripts/build.mjs bundles the services, and runs it: node scripts/bench/run.mjs bench|crafts [args]
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { build } from "esbuild";

const root = new URL("../..", import.meta.url).pathname;
const [name = "bench", ...args] = process.argv.slice(2);
const outfile = join(root, ".data/bench", `${name}.mjs`);
await build({
  entryPoints: [join(root, "scripts/bench", `${name}.ts`)],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node24",
  sourcemap: true,
  logLevel: "warning",
  plugins: [
    {
      name: "external-packages",
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (a) =>
          a.path.startsWith("@crafter/") ? undefined : { path: a.path, external: true },
        );
      },
    },
  ],
});
const result = spawnSync(process.execPath, ["--enable-source-maps", outfile, ...args], { stdio: "inherit", cwd: root });
process.exit(result.status ?? 1);
