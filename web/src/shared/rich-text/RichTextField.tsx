import { Skeleton } from "antd";
import { lazy, Suspense } from "react";
import type { RichTextEditorProps } from "./RichTextEditor";

// TipTap and ProseMirror load with the first editor shown, not with the dashboard.
const RichTextEditor = lazy(() => import("./RichTextEditor"));

/** The rich-text editor (see RichTextEditor), loaded on first use. */
export function RichTextField(props: RichTextEditorProps) {
  return (
    <Suspense fallback={<Skeleton active paragraph={{ rows: 3 }} title={false} />}>
      <RichTextEditor {...props} />
    </Suspense>
  );
}
