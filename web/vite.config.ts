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
    chunkSizeWarningLimit: 2000,
  },
});
