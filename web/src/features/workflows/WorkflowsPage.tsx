import { Card, Flex, Typography } from "antd";
import { useWorkflowHeaders } from "../../api/hooks/crafts";
import { EmptyState, ErrorState, LoadingBlock } from "../../shared/states";
import { WorkflowCard } from "./WorkflowCard";
import { groupWorkflows } from "./workflow-groups";

/** /app/workflows: every workflow of `GET /headers`, grouped by category, available then coming. */
export default function WorkflowsPage() {
  const { data, error, isLoading, mutate } = useWorkflowHeaders();
  let body: React.ReactNode;
  if (!data && isLoading) body = <LoadingBlock rows={8} testId="workflows-loading" />;
  else if (!data) body = <ErrorState error={error} onRetry={() => void mutate()} />;
  else if (data.headers.length === 0) body = <EmptyState testId="workflows-empty" description="No workflows yet." />;
  else {
    body = (
      <Flex vertical gap={24}>
        {groupWorkflows(data.headers).map((group) => (
          <Card key={group.category} title={group.category} data-testid="workflow-group">
            <div className="crafter-grid">
              {[...group.available, ...group.coming].map((header) => (
                <WorkflowCard key={header.name} header={header} isNew={data.newToolsList?.includes(header.name)} />
              ))}
            </div>
          </Card>
        ))}
      </Flex>
    );
  }
  return (
    <Flex vertical gap={24}>
      <div>
        <Typography.Title level={2} style={{ margin: 0 }}>
          Workflows
        </Typography.Title>
        <Typography.Text type="secondary">Pick a guided workflow to craft your content step by step.</Typography.Text>
      </div>
      {body}
    </Flex>
  );
}
