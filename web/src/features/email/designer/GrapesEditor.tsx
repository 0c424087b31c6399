import { normalizeSmartValues } from "@crafter/email-language";
import type { Editor } from "grapesjs";
import "grapesjs/dist/css/grapes.min.css";
// The panels' icons, bundled: GrapesJS would fetch Font Awesome from a CDN (cssIcons) otherwise.
import "font-awesome/css/font-awesome.min.css";
import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from "react";
import { ErrorState, FullPageSpin } from "../../../shared/states";
import { loadGrapes } from "./grapes-vendor";

/** What the designer page asks of the editor. */
export interface GrapesEditorHandle {
  /** The document as MJML. */
  getMjml(): string;
  /** Replaces the whole document (after a detach, or an import). */
  setMjml(mjml: string): void;
  /** Puts text at the caret of the text being edited, or appends it to the selected text block. */
  insertText(text: string): boolean;
}

// No outside host: the plugin's default image placeholder is a remote URL.
const PLACEHOLDER =
  "data:image/svg+xml;utf8," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="300"><rect width="100%" height="100%" fill="#e5e7eb"/><text x="50%" y="50%" font-family="Helvetica, Arial" font-size="24" fill="#6b7280" text-anchor="middle" dominant-baseline="middle">Image</text></svg>',
  );

/**
 * GrapesJS with grapesjs-mjml, self-hosted from npm: everything it loads comes from our own assets
 * (no storage, no remote assets). Loaded when the designer opens (grapes-vendor.ts): it is large.
 */
const GrapesEditor = forwardRef<GrapesEditorHandle, { mjml: string; onChange?: () => void }>(function GrapesEditor(
  { mjml, onChange },
  ref,
) {
  const container = useRef<HTMLDivElement>(null);
  const editor = useRef<Editor | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;
  const [state, setState] = useState<{ status: "loading" | "ready" } | { status: "error"; error: unknown }>({
    status: "loading",
  });
  const [attempt, setAttempt] = useState(0);

  // `attempt` reruns the load after a failure; `mjml` is the document on mount only (setMjml replaces it).
  useEffect(() => {
    let instance: Editor | null = null;
    let mount: HTMLDivElement | null = null;
    let cancelled = false;
    setState({ status: "loading" });
    loadGrapes().then(
      ({ grapesjs, mjml: grapesjsMjml }) => {
        if (cancelled || !container.current) return;
        // A fresh mount per editor: React's strict mode builds, destroys and builds again, and
        // GrapesJS does not come back to life in a container it was destroyed in.
        mount = document.createElement("div");
        mount.style.height = "100%";
        container.current.appendChild(mount);
        instance = grapesjs.init({
          container: mount,
          height: "100%",
          width: "100%",
          fromElement: false,
          storageManager: false,
          cssIcons: "",
          assetManager: { upload: false, assets: [] },
          plugins: [grapesjsMjml],
          pluginsOpts: {
            [grapesjsMjml as unknown as string]: { imagePlaceholderSrc: PLACEHOLDER, fonts: {} },
          },
          components: mjml,
        });
        instance.on("update", () => changed.current?.());
        editor.current = instance;
        setState({ status: "ready" });
      },
      (error: unknown) => {
        if (!cancelled) setState({ status: "error", error });
      },
    );
    return () => {
      cancelled = true;
      instance?.destroy();
      mount?.remove();
      editor.current = null;
    };
  }, [attempt]);

  useImperativeHandle(ref, () => ({
    getMjml: () => normalizeSmartValues(editor.current?.getHtml() ?? ""),
    setMjml: (next) => {
      editor.current?.setComponents(next);
    },
    insertText: (text) => {
      const instance = editor.current;
      if (!instance) return false;
      const doc = instance.Canvas.getDocument();
      if (instance.getEditing() && doc) {
        doc.execCommand("insertText", false, text);
        return true;
      }
      const selected = instance.getSelected();
      if (selected && /text|button/.test(String(selected.get("type")))) {
        selected.components().add({ type: "textnode", content: text });
        return true;
      }
      return false;
    },
  }));

  if (state.status === "error") {
    return (
      <ErrorState
        error={state.error}
        title="We could not load the designer"
        onRetry={() => setAttempt((count) => count + 1)}
      />
    );
  }
  return (
    <div ref={container} data-testid="grapes-editor" style={{ height: "100%" }}>
      {state.status === "loading" && <FullPageSpin label="Loading the designer" />}
    </div>
  );
});

export default GrapesEditor;
