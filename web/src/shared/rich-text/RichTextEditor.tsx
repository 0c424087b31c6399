import {
  BoldOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  RedoOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from "@ant-design/icons";
import { SMART_VALUES } from "@crafter/email-language";
import { EditorContent, useEditor, useEditorState } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { App, Button, Dropdown, Flex, Input, Modal, Segmented, Tooltip } from "antd";
import { type ReactNode, useEffect, useRef, useState } from "react";
import "./rich-text.css";
import { chipsToTokens, hasLayoutHtml, tokensToChips } from "./smart-value-html";
import { SmartValue } from "./smart-value-node";

export interface RichTextEditorProps {
  /** The HTML, with smart values as `{{…}}` tokens. */
  value: string;
  /** Called with the HTML (tokens, not chips) on every change; "" when the editor is empty. */
  onChange: (html: string) => void;
  /** The accessible name of the editing area ("Email body"). */
  label: string;
  /** Offer the "Smart value" menu (emails); crafts' results have none. */
  smartValues?: boolean;
  testId?: string;
  placeholder?: string;
}

type View = "rich" | "html";

function ToolButton(props: { label: string; keys?: string; active?: boolean; icon: ReactNode; onClick: () => void }) {
  return (
    <Tooltip title={props.keys ? `${props.label} (${props.keys})` : props.label}>
      <Button
        type={props.active ? "primary" : "text"}
        size="small"
        icon={props.icon}
        aria-label={props.label}
        aria-pressed={props.active}
        onClick={props.onClick}
      />
    </Tooltip>
  );
}

/**
 * A TipTap rich-text editor for HTML a marketer writes: headings, paragraphs, lists, links,
 * emphasis, and smart values as chips; raw HTML behind the "HTML" view. HTML with layout the
 * editor cannot keep (tables, images, styles) opens in the HTML view, and switching it to rich
 * text asks first. Loaded lazily through RichTextField.
 */
export default function RichTextEditor({
  value,
  onChange,
  label,
  smartValues,
  testId,
  placeholder,
}: RichTextEditorProps) {
  const { modal } = App.useApp();
  const [view, setView] = useState<View>(() => (hasLayoutHtml(value) ? "html" : "rich"));
  const [linkOpen, setLinkOpen] = useState(false);
  const [linkUrl, setLinkUrl] = useState("");
  // The HTML this editor last reported, so a value coming back from the form is not re-applied.
  const emitted = useRef(value);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [1, 2, 3] },
        code: false,
        codeBlock: false,
        link: {
          openOnClick: false,
          autolink: true,
          defaultProtocol: "https",
          protocols: ["http", "https", "mailto", "tel"],
        },
      }),
      SmartValue,
    ],
    content: view === "rich" ? tokensToChips(value) : "",
    editorProps: {
      attributes: {
        "aria-label": label,
        "aria-multiline": "true",
        role: "textbox",
        class: "crafter-rich-text__content",
        ...(testId ? { "data-testid": `${testId}-rich` } : {}),
      },
    },
    onUpdate: ({ editor: current }) => {
      const html = current.isEmpty ? "" : chipsToTokens(current.getHTML());
      emitted.current = html;
      onChange(html);
    },
  });
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e?.isActive("bold") ?? false,
      italic: e?.isActive("italic") ?? false,
      h2: e?.isActive("heading", { level: 2 }) ?? false,
      h3: e?.isActive("heading", { level: 3 }) ?? false,
      bullet: e?.isActive("bulletList") ?? false,
      ordered: e?.isActive("orderedList") ?? false,
      link: e?.isActive("link") ?? false,
      empty: e?.isEmpty ?? true,
    }),
  });

  useEffect(() => {
    if (!editor || view !== "rich" || value === emitted.current) return;
    emitted.current = value;
    editor.commands.setContent(tokensToChips(value), { emitUpdate: false });
  }, [editor, value, view]);

  const toRich = () => {
    if (!editor) return;
    const apply = () => {
      emitted.current = value;
      editor.commands.setContent(tokensToChips(value), { emitUpdate: false });
      setView("rich");
    };
    if (!hasLayoutHtml(value)) return apply();
    modal.confirm({
      title: "Edit this HTML as rich text?",
      content:
        "Rich text keeps headings, paragraphs, lists, links, emphasis and smart values. Tables, images and inline styles in this HTML would be dropped when you edit it.",
      okText: "Edit as rich text",
      onOk: () => {
        apply();
        // The simplified HTML is what the form now holds.
        const html = editor.isEmpty ? "" : chipsToTokens(editor.getHTML());
        emitted.current = html;
        onChange(html);
      },
    });
  };

  const openLink = () => {
    setLinkUrl((editor?.getAttributes("link").href as string | undefined) ?? "");
    setLinkOpen(true);
  };
  const applyLink = () => {
    const chain = editor?.chain().focus().extendMarkRange("link");
    if (!chain) return;
    const url = linkUrl.trim();
    if (url) chain.setLink({ href: url }).run();
    else chain.unsetLink().run();
    setLinkOpen(false);
  };

  return (
    <div className="crafter-rich-text" data-testid={testId}>
      <Flex
        className="crafter-rich-text__toolbar"
        gap={4}
        wrap
        align="center"
        role="toolbar"
        aria-label={`${label}: formatting`}
      >
        {view === "rich" && editor && (
          <>
            <ToolButton
              label="Bold"
              keys="Ctrl+B"
              icon={<BoldOutlined />}
              active={state?.bold}
              onClick={() => editor.chain().focus().toggleBold().run()}
            />
            <ToolButton
              label="Italic"
              keys="Ctrl+I"
              icon={<ItalicOutlined />}
              active={state?.italic}
              onClick={() => editor.chain().focus().toggleItalic().run()}
            />
            <ToolButton
              label="Heading"
              keys="Ctrl+Alt+2"
              icon={<span aria-hidden>H2</span>}
              active={state?.h2}
              onClick={() => editor.chain().focus().toggleHeading({ level: 2 }).run()}
            />
            <ToolButton
              label="Subheading"
              keys="Ctrl+Alt+3"
              icon={<span aria-hidden>H3</span>}
              active={state?.h3}
              onClick={() => editor.chain().focus().toggleHeading({ level: 3 }).run()}
            />
            <ToolButton
              label="Bulleted list"
              keys="Ctrl+Shift+8"
              icon={<UnorderedListOutlined />}
              active={state?.bullet}
              onClick={() => editor.chain().focus().toggleBulletList().run()}
            />
            <ToolButton
              label="Numbered list"
              keys="Ctrl+Shift+7"
              icon={<OrderedListOutlined />}
              active={state?.ordered}
              onClick={() => editor.chain().focus().toggleOrderedList().run()}
            />
            <ToolButton label="Link" icon={<LinkOutlined />} active={state?.link} onClick={openLink} />
            <ToolButton
              label="Undo"
              keys="Ctrl+Z"
              icon={<UndoOutlined />}
              onClick={() => editor.chain().focus().undo().run()}
            />
            <ToolButton
              label="Redo"
              keys="Ctrl+Shift+Z"
              icon={<RedoOutlined />}
              onClick={() => editor.chain().focus().redo().run()}
            />
            {smartValues && (
              <Dropdown
                trigger={["click"]}
                menu={{
                  items: SMART_VALUES.map((v) => ({ key: v.name, label: v.label })),
                  onClick: ({ key }) => {
                    const known = SMART_VALUES.find((v) => v.name === key);
                    editor
                      .chain()
                      .focus()
                      .insertSmartValue(key, known?.fallback || undefined)
                      .run();
                  },
                }}
              >
                <Button size="small" data-testid={testId ? `${testId}-smart-value` : undefined}>
                  Smart value
                </Button>
              </Dropdown>
            )}
          </>
        )}
        <Segmented<View>
          size="small"
          className="crafter-rich-text__view"
          aria-label="Editor view"
          value={view}
          onChange={(next) => (next === "rich" ? toRich() : setView("html"))}
          options={[
            { value: "rich", label: "Rich text" },
            { value: "html", label: "HTML" },
          ]}
        />
      </Flex>
      {view === "rich" ? (
        <EditorContent editor={editor} />
      ) : (
        <Input.TextArea
          className="crafter-rich-text__html"
          aria-label={`${label} (HTML)`}
          autoSize={{ minRows: 6, maxRows: 20 }}
          value={value}
          placeholder={placeholder}
          spellCheck={false}
          onChange={(event) => {
            emitted.current = event.target.value;
            onChange(event.target.value);
          }}
          data-testid={testId ? `${testId}-html` : undefined}
        />
      )}
      <Modal
        open={linkOpen}
        title="Link"
        okText={linkUrl.trim() ? "Apply" : "Remove link"}
        onOk={applyLink}
        onCancel={() => setLinkOpen(false)}
        destroyOnHidden
      >
        <Input
          autoFocus
          aria-label="Link address"
          placeholder="https://…"
          value={linkUrl}
          onChange={(event) => setLinkUrl(event.target.value)}
          onPressEnter={applyLink}
        />
      </Modal>
    </div>
  );
}
