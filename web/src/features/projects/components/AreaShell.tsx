import { QuestionCircleOutlined } from "@ant-design/icons";
import { Flex, Segmented, Typography } from "antd";
import type { ReactNode } from "react";
import { Link, useLocation, useNavigate } from "react-router-dom";

export interface AreaSection {
  path: string;
  label: string;
}

/** Where a page's help lives (/app/help/<slug>). */
export const helpHref = (slug: string) => `/app/help/${encodeURIComponent(slug)}`;

/** A link to a page's help, shown on every workspace page. */
export function HelpLink({ slug }: { slug: string }) {
  return (
    <Link to={helpHref(slug)} data-testid="help-link" aria-label="Help for this page">
      <QuestionCircleOutlined /> Help
    </Link>
  );
}

/** A workspace area's frame: title, its sections (base, tools, crafts…) and the help link. */
export function AreaShell({
  title,
  subtitle,
  sections,
  help,
  extra,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  sections?: AreaSection[];
  help: string;
  extra?: ReactNode;
  children: ReactNode;
}) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const current = sections?.find((section) => section.path === pathname)?.path ?? sections?.[0]?.path;
  return (
    <Flex vertical gap={20}>
      <Flex justify="space-between" align="flex-start" wrap gap={12}>
        <div>
          <Typography.Title level={2} style={{ margin: 0 }}>
            {title}
          </Typography.Title>
          {subtitle && <Typography.Text type="secondary">{subtitle}</Typography.Text>}
        </div>
        <Flex gap={12} align="center" wrap>
          {extra}
          <HelpLink slug={help} />
        </Flex>
      </Flex>
      {sections && sections.length > 1 && (
        <div style={{ overflowX: "auto" }}>
          <Segmented
            value={current}
            options={sections.map((section) => ({
              value: section.path,
              label: (
                <span data-testid={`section-${section.label.toLowerCase().replace(/\s+/g, "-")}`}>{section.label}</span>
              ),
            }))}
            onChange={(value) => navigate(String(value))}
            aria-label={`${title} sections`}
          />
        </div>
      )}
      {children}
    </Flex>
  );
}
