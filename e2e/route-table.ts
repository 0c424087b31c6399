import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { repoRoot } from "@crafter/kit/testing";
import { build } from "esbuild";

/** One entry of the web's route table (web/src/app/routes.tsx), as data. */
export interface RouteRow {
  path: string;
  title: string;
  access: "public" | "guest" | "auth" | "app";
  flag?: string;
  roles?: string[];
  /** "business": framed by the business's name and logo, titled "<page> · <business>", not Crafter's. */
  frame?: "business";
}

/**
 * The dashboard's route table as the router sees it: routes.tsx and each area's routes bundled with
 * esbuild and evaluated in a VM. Every package outside the repo is replaced by an inert stand-in
 * (the pages are `lazy` and never load; icons and JSX are never rendered), so only the table's own
 * data — paths, titles, access, flags, roles — is real. This way a page added to the table is
 * checked without anyone listing it here.
 */
export async function routeTable(): Promise<RouteRow[]> {
  const bundle = await build({
    entryPoints: [join(repoRoot, "web/src/app/routes.tsx")],
    bundle: true,
    write: false,
    format: "iife",
    globalName: "table",
    platform: "neutral",
    jsx: "automatic",
    logLevel: "error",
    plugins: [
      {
        name: "inert-packages",
        setup(on) {
          on.onResolve({ filter: /.*/ }, (args) => {
            if (args.kind === "dynamic-import") return { path: args.path, namespace: "inert" };
            if (/^[@a-z]/.test(args.path) && !args.path.startsWith("@crafter/")) {
              return { path: args.path, namespace: "inert" };
            }
            return undefined;
          });
          on.onLoad({ filter: /.*/, namespace: "inert" }, () => ({
            // Named imports read through esbuild's interop object, whose prototype is the module's.
            contents: `
              const any = new Proxy({}, { get: (_, key) => (key === "__esModule" ? false : inert) });
              const inert = new Proxy(function () {}, {
                get: (_, key) => (key === "__esModule" ? false : inert),
                getPrototypeOf: () => any,
                apply: () => inert,
                construct: () => inert,
              });
              module.exports = inert;`,
            loader: "js",
          }));
        },
      },
    ],
  });
  const context: { table?: { ROUTES: RouteRow[] } } = {};
  runInNewContext(bundle.outputFiles[0]!.text, context);
  return context.table!.ROUTES.map(({ path, title, access, flag, roles, frame }) => ({
    path,
    title,
    access,
    flag,
    roles,
    frame,
  }));
}
