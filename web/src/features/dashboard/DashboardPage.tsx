import { CheckCircleFilled, EditOutlined, MinusCircleOutlined } from "@ant-design/icons";
import { Card, Col, Flex, Progress, Row, Typography } from "antd";
import { useInitial } from "../../api/hooks/app";
import { useCheckList } from "../../api/hooks/projects";
import type { ActiveProjectInfo, CheckListItem } from "../../api/types";
import { greeting } from "../../shared/format";
import { LinkButton } from "../../shared/LinkButton";
import { EmptyState, ErrorState, LoadingBlock } from "../../shared/states";
import { CraftSummaryList } from "../crafts/CraftSummaryList";
import { newCraftHref } from "../crafts/links";

/** The check-list arrives as an array or as `{ checkList }` (see docs/api.md); null when absent. */
export function normalizeCheckList(value: ActiveProjectInfo["projectCheckList"]): CheckListItem[] | null {
  if (Array.isArray(value)) return value;
  if (value && Array.isArray(value.checkList)) return value.checkList;
  return null;
}

function CheckList({ project }: { project: ActiveProjectInfo }) {
  const inline = normalizeCheckList(project.projectCheckList);
  const fetched = useCheckList(project.projectId, inline === null);
  const items = inline ?? fetched.data?.checkList ?? null;
  if (!items) {
    if (fetched.error) return <ErrorState error={fetched.error} onRetry={() => void fetched.mutate()} />;
    return <LoadingBlock rows={3} />;
  }
  if (items.length === 0)
    return <Typography.Text type="secondary">Nothing to set up. You're all done.</Typography.Text>;
  const done = items.filter((item) => item.done).length;
  return (
    <Flex vertical gap={12}>
      <Progress percent={Math.round((done / items.length) * 100)} size="small" aria-label="Set-up progress" />
      <ul className="crafter-checklist" data-testid="project-checklist">
        {items.map((item) => (
          <li key={item.key} data-done={item.done}>
            {item.done ? (
              <CheckCircleFilled className="crafter-checklist__done" aria-label="Done" />
            ) : (
              <MinusCircleOutlined className="crafter-checklist__todo" aria-label="To do" />
            )}
            <Typography.Text delete={item.done} type={item.done ? "secondary" : undefined}>
              {item.title}
            </Typography.Text>
          </li>
        ))}
      </ul>
    </Flex>
  );
}

/** /app/dashboard: greeting, the project's check-list, recent crafts. */
export default function DashboardPage() {
  const { data, error, mutate } = useInitial();
  if (!data) return error ? <ErrorState error={error} onRetry={() => void mutate()} /> : <LoadingBlock rows={8} />;

  const project = data.activeProjectInfo;
  const crafts = project.crafts ?? [];
  const name = data.userInfo?.display_name || "Crafter";

  return (
    <Flex vertical gap={24} data-testid="dashboard">
      <Flex justify="space-between" align="center" wrap gap={16}>
        <div>
          <Typography.Title level={2} style={{ margin: 0 }} data-testid="dashboard-greeting">
            {greeting()}, {name}
          </Typography.Title>
          <Typography.Text type="secondary">
            {project.projectTitle
              ? `Here is what's happening with ${project.projectTitle}.`
              : "Here is your workspace."}
          </Typography.Text>
        </div>
        <LinkButton
          to={newCraftHref()}
          type="primary"
          size="large"
          icon={<EditOutlined />}
          data-testid="dashboard-new-blog-post"
        >
          Craft a blog post
        </LinkButton>
      </Flex>
      <Row gutter={[24, 24]}>
        <Col xs={24} lg={15}>
          <Card
            title="Recent crafts"
            extra={
              crafts.length > 0 ? (
                <LinkButton to="/app/crafts" type="link">
                  See all
                </LinkButton>
              ) : null
            }
          >
            {crafts.length === 0 ? (
              <EmptyState
                testId="dashboard-empty"
                description="You have not crafted anything yet."
                action={
                  <LinkButton to={newCraftHref()} type="primary" data-testid="cta-blog-post">
                    Craft a blog post
                  </LinkButton>
                }
              />
            ) : (
              <CraftSummaryList crafts={crafts} testId="recent-crafts" />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={9}>
          <Flex vertical gap={24}>
            <Card title="Get set up">
              <CheckList project={project} />
            </Card>
            {project.profile && (
              <Card title="Your business">
                <Typography.Title level={5} style={{ marginTop: 0 }}>
                  {project.profile.name}
                </Typography.Title>
                <Typography.Paragraph type="secondary" ellipsis={{ rows: 4 }}>
                  {project.profile.description}
                </Typography.Paragraph>
              </Card>
            )}
          </Flex>
        </Col>
      </Row>
    </Flex>
  );
}
