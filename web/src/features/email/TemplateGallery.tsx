import { DeleteOutlined, EditOutlined, RobotOutlined } from "@ant-design/icons";
import { App, Button, Card, Flex, Pagination, Popconfirm, Tabs, Tag, Typography } from "antd";
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { useSWRConfig } from "swr";
import {
  deleteTemplate,
  type EmailTemplate,
  isTemplateListKey,
  type TemplateKind,
  type TemplateScope,
  useTemplates,
} from "../../api/email";
import { useFeature } from "../../api/hooks/app";
import { LinkButton } from "../../shared/LinkButton";
import { EmptyState, ErrorState, LoadingBlock } from "../../shared/states";
import { designerPath } from "./paths";
import "./email.css";

const SECTION_FLAG = "email_designer_section_template";

/** The writer each gallery offers beside its templates (the Create menu's Email and Social media post lead here). */
const WRITERS: Record<TemplateKind, { path: string; label: string }> = {
  email: { path: "/app/crafts/EmailWriter", label: "Write an email with AI" },
  social: { path: "/app/crafts/SocialMediaPostWriter", label: "Write a post with AI" },
};

/** A scaled-down, script-free rendering of the template's HTML. */
function Thumbnail({ template }: { template: EmailTemplate }) {
  return (
    <div className="crafter-template-thumb" aria-hidden>
      <iframe title={`${template.name} preview`} srcDoc={template.html} sandbox="" tabIndex={-1} loading="lazy" />
    </div>
  );
}

function TemplateGrid({ kind, scope }: { kind: TemplateKind; scope: TemplateScope }) {
  const [page, setPage] = useState(1);
  const navigate = useNavigate();
  const { message } = App.useApp();
  const { mutate } = useSWRConfig();
  const { data, error, isLoading, mutate: reload } = useTemplates(kind, scope, page);
  if (isLoading) return <LoadingBlock rows={6} testId="templates-loading" />;
  if (error) return <ErrorState error={error} onRetry={() => void reload()} />;
  if (!data || data.result.length === 0)
    return (
      <EmptyState
        testId={`templates-empty-${scope}`}
        description={
          scope === "user" ? "You have not saved a template yet. Start from a predefined one." : "Nothing here yet."
        }
      />
    );
  const remove = async (template: EmailTemplate) => {
    try {
      await deleteTemplate(template.id);
      message.success(`${template.name} deleted`);
      await mutate(isTemplateListKey);
    } catch (failure) {
      message.error(failure instanceof Error ? failure.message : "The template could not be deleted.");
    }
  };
  return (
    <Flex vertical gap={16}>
      <div className="crafter-template-grid" data-testid={`templates-${scope}`}>
        {data.result.map((template) => (
          <Card
            key={template.id}
            hoverable
            size="small"
            cover={<Thumbnail template={template} />}
            data-testid={`template-card-${template.id}`}
            actions={[
              <Button
                key="open"
                type="link"
                icon={<EditOutlined />}
                onClick={() => navigate(designerPath(kind, template.id))}
                data-testid={`template-open-${template.id}`}
                aria-label={`Open ${template.name} in the designer`}
              >
                {scope === "user" ? "Edit" : "Use"}
              </Button>,
              ...(scope === "user"
                ? [
                    <Popconfirm
                      key="delete"
                      title={`Delete ${template.name}?`}
                      description="Campaigns already sent keep their copy."
                      okText="Delete"
                      okButtonProps={{ danger: true }}
                      onConfirm={() => remove(template)}
                    >
                      <Button type="link" danger icon={<DeleteOutlined />} aria-label={`Delete ${template.name}`}>
                        Delete
                      </Button>
                    </Popconfirm>,
                  ]
                : []),
            ]}
          >
            <Card.Meta
              title={template.name}
              description={
                <Flex gap={4} wrap>
                  <Tag>{template.category}</Tag>
                  {template.subject && (
                    <Typography.Text type="secondary" ellipsis>
                      {template.subject}
                    </Typography.Text>
                  )}
                </Flex>
              }
            />
          </Card>
        ))}
      </div>
      {data.meta.totalPages > 1 && (
        <Pagination current={page} total={data.meta.count} pageSize={24} onChange={setPage} showSizeChanger={false} />
      )}
    </Flex>
  );
}

/**
 * /app/create/email and /app/create/social-media-post: predefined templates
 * (`activeTemplateType` predefinedTemplates), the user's own, and section templates behind flag
 * `email_designer_section_template`. Choosing one opens the designer.
 */
export function TemplateGallery({ kind }: { kind: TemplateKind }) {
  const sections = useFeature(SECTION_FLAG);
  const [activeTemplateType, setActiveTemplateType] = useState<string>("predefinedTemplates");
  const title = kind === "social" ? "Choose a social media post template" : "Choose an email template";
  const items = [
    { key: "predefinedTemplates", label: "Predefined", children: <TemplateGrid kind={kind} scope="predefined" /> },
    { key: "myTemplates", label: "My templates", children: <TemplateGrid kind={kind} scope="user" /> },
    ...(sections && kind === "email"
      ? [{ key: "sectionTemplates", label: "Sections", children: <TemplateGrid kind={kind} scope="section" /> }]
      : []),
  ];
  return (
    <Flex vertical gap={16} data-testid={`template-gallery-${kind}`}>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Title level={2} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        <LinkButton to={WRITERS[kind].path} icon={<RobotOutlined />} data-testid="gallery-write-with-ai">
          {WRITERS[kind].label}
        </LinkButton>
      </Flex>
      <Tabs activeKey={activeTemplateType} onChange={setActiveTemplateType} items={items} destroyOnHidden />
    </Flex>
  );
}

export function EmailGalleryPage() {
  return <TemplateGallery kind="email" />;
}

export function SocialGalleryPage() {
  return <TemplateGallery kind="social" />;
}
