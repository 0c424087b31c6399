import type { grapesjs as GrapesJs, Plugin } from "grapesjs";
// GrapesJS and grapesjs-mjml as the prebuilt browser files their packages publish (about 1.1 MB
// minified each, single modules that no bundler can split), served beside the app's chunks and
// loaded when the designer opens: bundled, each would be one chunk over Vite's 500 kB warning.
import grapesUrl from "grapesjs/dist/grapes.min.js?url";
import mjmlUrl from "grapesjs-mjml/dist/index.js?url";

export interface Grapes {
  grapesjs: typeof GrapesJs;
  mjml: Plugin;
}

/** A UMD build's global: its exports object, or the default export inside it. */
function umdExport<T>(name: string): T {
  const value = (globalThis as Record<string, unknown>)[name] as { default?: T } | T | undefined;
  if (!value) throw new Error(`${name} did not load`);
  return ((value as { default?: T }).default ?? value) as T;
}

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`Could not load ${src}`));
    document.head.append(script);
  });
}

let loading: Promise<Grapes> | undefined;

/**
 * GrapesJS and the MJML plugin, loaded once (both files in parallel).
 * @throws when a file cannot be fetched (offline, a deploy replaced the assets)
 */
export function loadGrapes(): Promise<Grapes> {
  loading ??= Promise.all([loadScript(grapesUrl), loadScript(mjmlUrl)]).then(
    () => ({ grapesjs: umdExport<typeof GrapesJs>("grapesjs"), mjml: umdExport<Plugin>("grapesjs-mjml") }),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
