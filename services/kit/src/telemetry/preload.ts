import { register } from "node:module";
import { INSTRUMENTED_MODULES, startTelemetryFromEnv } from "./telemetry";

/**
 * Runs before the service's main module (`node --import ./dist/instrument.js dist/main.js`; the build
 * writes that file per service). Under ESM, http, express, ioredis and mongoose can only be patched
 * when the SDK starts before they are imported and the import-in-the-middle loader hook sees their
 * imports; the hook intercepts only those modules. When OTEL_EXPORTER_OTLP_ENDPOINT is unset it
 * registers nothing and starts nothing.
 */
export function preloadTelemetry(serviceName: string): void {
  if (!startTelemetryFromEnv(serviceName)) return;
  register("import-in-the-middle/hook.mjs", import.meta.url, {
    data: { include: INSTRUMENTED_MODULES.flatMap((name) => [name, `node:${name}`]) },
  });
}
