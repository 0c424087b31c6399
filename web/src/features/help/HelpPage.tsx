import { SearchOutlined } from "@ant-design/icons";
import { Card, Col, Empty, Input, Menu, Row, Typography } from "antd";
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { useMemo, useState } from "react";
import { Link, Navigate, useNavigate, useParams, useSearchParams } from "react-router-dom";
import { safeHtml } from "../../shared/safe-html";
import { HELP_FOR_PARAM, helpFor, searchHelp } from "./help-docs";
import { HELP_DOCS } from "./help-index";

/**
 * /app/help and /app/help/:slug: searchable help for every page, written as Markdown in the repo.
 * `/app/help?page=<app path>` (the header's help button) opens the help of that page.
 */
export default function HelpPage() {
  const { slug } = useParams();
  const [searchParams] = useSearchParams();
  const forPage = slug ? null : searchParams.get(HELP_FOR_PARAM);
  if (forPage !== null) return <Navigate to={`/app/help/${helpFor(HELP_DOCS, forPage)?.slug ?? ""}`} replace />;
  return <HelpTopics slug={slug} />;
}

function HelpTopics({ slug }: { slug?: string }) {
  const navigate = useNavigate();
  const [query, setQuery] = useState("");
  const found = useMemo(() => searchHelp(HELP_DOCS, query), [query]);
  const doc = HELP_DOCS.find((candidate) => candidate.slug === slug) ?? (query ? found[0] : HELP_DOCS[0]);
  // micromark escapes raw HTML by default; the sanitiser is a second guard.
  const html = useMemo(
    () => (doc ? safeHtml(micromark(doc.body, { extensions: [gfm()], htmlExtensions: [gfmHtml()] })) : ""),
    [doc],
  );

  return (
    <Row gutter={[24, 24]}>
      <Col xs={24} md={8} lg={7}>
        <Card size="small">
          <Typography.Title level={3} style={{ marginTop: 0 }}>
            Help
          </Typography.Title>
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder="Search help"
            aria-label="Search help"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            data-testid="help-search"
          />
          {found.length === 0 ? (
            <Empty description="No help page matches." style={{ marginTop: 16 }} data-testid="help-no-results" />
          ) : (
            <Menu
              mode="inline"
              style={{ borderInlineEnd: "none", marginTop: 8 }}
              selectedKeys={doc ? [doc.slug] : []}
              onClick={({ key }) => navigate(`/app/help/${key}`)}
              items={found.map((entry) => ({
                key: entry.slug,
                label: <span data-testid={`help-topic-${entry.slug}`}>{entry.title}</span>,
              }))}
              data-testid="help-topics"
            />
          )}
        </Card>
      </Col>
      <Col xs={24} md={16} lg={17}>
        <Card data-testid="help-article">
          {doc ? (
            <div className="crafter-help" dangerouslySetInnerHTML={{ __html: html }} />
          ) : (
            <Empty description={<Link to="/app/help">All help pages</Link>} />
          )}
        </Card>
      </Col>
    </Row>
  );
}
