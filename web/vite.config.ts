import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The gateway (services/gateway) is the only backend: in dev the Vite server proxies the three
// public prefixes to it; in production the gateway serves web/dist with an SPA fallback.
const gateway = process.env.CRAFTER_GATEWAY_URL ?? "http://127.0.0.1:8080";
const proxied = { target: gateway, changeOrigin: false, xfwd: true };

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      "/auth": proxied,
      "/api": proxied,
      "/rpc": proxied,
      "/media": proxied,
    },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: true,
    // dist/.vite/manifest.json: scripts/bundle-report.mjs reads which chunks a page's modules need.
    manifest: true,
    rolldownOptions: {
      // antd's rc-component packages declare no `sideEffects`, so the bundler keeps every module a
      // barrel import reaches (antd's form context alone pulled the whole form engine and
      // async-validator into the first load). Their ES modules only declare components.
      treeshake: {
        moduleSideEffects: [
          { test: /\/node_modules\/@rc-component\/[^/]+\/es\/.*\.js$/, sideEffects: false },
          // Our shared packages are pure too: a constant from the validation barrel must not bring
          // its time-zone check and date-fns along.
          { test: /\/packages\/[^/]+\/src\/[^?]*\.ts$/, sideEffects: false },
        ],
      },
    },
  },
});
