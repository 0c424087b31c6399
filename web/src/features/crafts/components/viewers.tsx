import { isViewerKind, type ViewerKind } from "@crafter/workflow-language";
import { Card, Descriptions, Flex, List, Progress, Tag, Typography } from "antd";
import type { ComponentType } from "react";
import type { StepResult } from "../../../api/types";
import { safeHtml } from "../../../shared/safe-html";
import { EmailAttachmentViewer, TemplateDesignerViewer } from "../../email/craft-steps";
import { MEDIA_VIEWERS } from "../../media/viewers";
import { engineLabel } from "../engine-label";

/**
 * One component per viewer kind of the spec (section 3, "Viewer kinds") that a working workflow
 * uses (the media viewers live in features/media); a kind the web does not know falls back on the
 * result's format (html, list, text).
 */
export interface ViewerProps {
  result: StepResult;
}

/** Text of a result, whatever its shape. */
export function contentText(content: unknown): string {
  if (content === null || content === undefined) return "";
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map(contentText).join("\n");
  if (typeof content === "object") {
    const record = content as Record<string, unknown>;
    for (const key of ["text", "content", "html", "title"])
      if (typeof record[key] === "string") return record[key] as string;
    return JSON.stringify(content, null, 2);
  }
  return String(content);
}

const BULLET = /^\s*(?:[-*•]|\d+[.)])\s+/;

/** Items of a list result: an array, or a string with one item per line ("- " / "1. " dropped). */
export function contentItems(content: unknown): string[] {
  if (Array.isArray(content)) return content.map(contentText).filter((item) => item.trim() !== "");
  return contentText(content)
    .split(/\r?\n/)
    .map((line) => line.replace(BULLET, "").trim())
    .filter(Boolean);
}

const HEADING = /^\s*#{1,6}\s+(.+?)\s*$/;

/** A list result in sections: "## Heading" lines start one, item lines fill it. */
export function contentSections(content: unknown): { heading: string | null; items: string[] }[] {
  if (Array.isArray(content)) return [{ heading: null, items: contentItems(content) }];
  const sections: { heading: string | null; items: string[] }[] = [];
  for (const line of contentText(content).split(/\r?\n/)) {
    const heading = line.match(HEADING);
    if (heading) {
      sections.push({ heading: heading[1] ?? "", items: [] });
      continue;
    }
    const item = line.replace(BULLET, "").trim();
    if (!item) continue;
    if (sections.length === 0) sections.push({ heading: null, items: [] });
    sections.at(-1)?.items.push(item);
  }
  return sections.filter((section) => section.items.length > 0 || section.heading);
}

function BulletListViewer({ result }: ViewerProps) {
  return (
    <div data-testid="viewer-bullet-list">
      {contentSections(result.content).map((section, at) => (
        <section key={at} className="crafter-list-section">
          {section.heading && (
            <Typography.Title level={5} className="crafter-list-section__heading">
              {section.heading}
            </Typography.Title>
          )}
          <ul className="crafter-bullet-list">
            {section.items.map((item, index) => (
              <li key={index}>{item}</li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

/** Our own generated HTML, escaped by the server: rendered as is, in a styled container. */
function RichTextViewer({ result }: ViewerProps) {
  return (
    <div
      className="crafter-rich-text"
      data-testid="viewer-rich-text"
      dangerouslySetInnerHTML={{ __html: safeHtml(contentText(result.content)) }}
    />
  );
}

function PlainTextViewer({ result }: ViewerProps) {
  return (
    <Typography.Paragraph className="crafter-plain-text" data-testid="viewer-plain-text">
      {contentText(result.content)}
    </Typography.Paragraph>
  );
}

function KeywordsViewer({ result }: ViewerProps) {
  return (
    <Flex wrap gap={6} data-testid="viewer-keywords">
      {contentItems(result.content).map((item) => (
        <Tag key={item} color="purple">
          {item}
        </Tag>
      ))}
    </Flex>
  );
}

/** Each item of a list result on its own numbered row (alternatives to choose from). */
function TextListViewer({ result }: ViewerProps) {
  return (
    <div data-testid="viewer-text-list">
      {contentSections(result.content).map((section, at) => (
        <section key={at} className="crafter-list-section">
          {section.heading && <Typography.Title level={5}>{section.heading}</Typography.Title>}
          <ol className="crafter-text-list">
            {section.items.map((item, index) => (
              <li key={index}>
                <Typography.Text copyable>{item}</Typography.Text>
              </li>
            ))}
          </ol>
        </section>
      ))}
    </div>
  );
}

/** List items as cards in a grid. */
function GridViewer({ result }: ViewerProps) {
  return (
    <div className="crafter-grid" data-testid="viewer-grid">
      {contentItems(result.content).map((item, index) => (
        <Card key={index} size="small">
          {item}
        </Card>
      ))}
    </div>
  );
}

const SCORE_KEYS = ["score", "overallScore", "performance", "seo", "accessibility"];

function scalar(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/**
 * The FunctionCaller websiteAudit summary: scores as dials, lists as lists, other fields as rows,
 * from `result.data` (the readable `content` is shown when there is no data).
 */
function WebsiteAuditSummaryViewer({ result }: ViewerProps) {
  const data = result.data && typeof result.data === "object" ? (result.data as Record<string, unknown>) : null;
  if (!data) return <PlainTextViewer result={result} />;
  const entries = Object.entries(data);
  const scores = entries.filter(([key, value]) => SCORE_KEYS.includes(key) && typeof value === "number");
  const lists = entries.filter(([, value]) => Array.isArray(value));
  const rows = entries.filter(([key, value]) => !Array.isArray(value) && !scores.some(([name]) => name === key));
  return (
    <Flex vertical gap={16} data-testid="viewer-website-audit-summary">
      {scores.length > 0 && (
        <Flex gap={24} wrap>
          {scores.map(([key, value]) => (
            <Flex key={key} vertical align="center" gap={4}>
              <Progress type="circle" size={72} percent={Math.round(Number(value))} />
              <Typography.Text>{humanizeKey(key)}</Typography.Text>
            </Flex>
          ))}
        </Flex>
      )}
      {rows.length > 0 && (
        <Descriptions
          size="small"
          column={1}
          bordered
          items={rows.map(([key, value]) => ({ key, label: humanizeKey(key), children: scalar(value) }))}
        />
      )}
      {lists.map(([key, value]) => (
        <List
          key={key}
          size="small"
          header={<strong>{humanizeKey(key)}</strong>}
          bordered
          dataSource={(value as unknown[]).map(contentText)}
          renderItem={(item) => <List.Item>{item}</List.Item>}
        />
      ))}
      {result.content !== undefined && result.content !== "" && (
        <Typography.Paragraph type="secondary">{contentText(result.content)}</Typography.Paragraph>
      )}
    </Flex>
  );
}

function humanizeKey(key: string): string {
  const words = key.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Viewers whose results are chosen: one (single) or several (multi), see StepResults. */
export const SELECT_VIEWERS: Partial<Record<ViewerKind, "single" | "multi">> = {
  "single select list": "single",
  "multi select list": "multi",
};

/** A renderer for every viewer kind: a kind added to the language does not compile without one. */
export const VIEWERS: Record<ViewerKind, ComponentType<ViewerProps>> = {
  "bullet list": BulletListViewer,
  "text list": TextListViewer,
  "rich text": RichTextViewer,
  "plain text": PlainTextViewer,
  "single select list": PlainTextViewer,
  "multi select list": PlainTextViewer,
  keywords: KeywordsViewer,
  grid: GridViewer,
  "website audit summary": WebsiteAuditSummaryViewer,
  ...MEDIA_VIEWERS,
  "template designer": TemplateDesignerViewer,
  "email attachment uploader": EmailAttachmentViewer,
};

const BY_FORMAT: Record<string, ComponentType<ViewerProps>> = {
  html: RichTextViewer,
  list: BulletListViewer,
  text: PlainTextViewer,
  data: WebsiteAuditSummaryViewer,
};

export function viewerFor(viewer: string | null | undefined, result: StepResult): ComponentType<ViewerProps> {
  return (isViewerKind(viewer) && VIEWERS[viewer]) || (result.format && BY_FORMAT[result.format]) || PlainTextViewer;
}

/** How the result was made: engine, framework, and the engine's note (the offline engine says so). */
export function ResultMeta({ result }: ViewerProps) {
  if (!result.engine && !result.framework && !result.note) return null;
  const engine = engineLabel(result.engine);
  return (
    <Flex vertical gap={6} className="crafter-result-meta">
      <Flex gap={6} wrap>
        {engine && (
          <Tag color={engine.color} data-testid="result-engine">
            {engine.label}
          </Tag>
        )}
        {result.framework && <Tag>Framework: {result.framework}</Tag>}
      </Flex>
      {result.note && (
        <Typography.Text type="secondary" data-testid="result-note">
          {result.note}
        </Typography.Text>
      )}
    </Flex>
  );
}

/** Results shown read-only (view steps, answers of other steps). */
export function StepResults({ viewer, results }: { viewer?: string | null; results: StepResult[] }) {
  if (results.length === 0) return <Typography.Text type="secondary">No results yet.</Typography.Text>;
  return (
    <Flex vertical gap={16} data-testid="step-results">
      {results.map((result, index) => {
        const Viewer = viewerFor(viewer, result);
        return (
          <div key={result.id || index} className="crafter-result">
            <Viewer result={result} />
            <ResultMeta result={result} />
          </div>
        );
      })}
    </Flex>
  );
}
