import type { ReactNode } from "react";
import { useWorkflowHeaders } from "../../api/hooks/crafts";
import { EmptyState, ErrorState, LoadingBlock } from "../../shared/states";
import { WorkflowCard } from "../workflows/WorkflowCard";
import { toolHeaders } from "../workflows/workflow-groups";

/** The tools of `GET /headers` (toolsList + newToolsList), each starting a standalone craft. */
export function ToolsGrid({ filter }: { filter?: (name: string) => boolean }) {
  const { data, error, isLoading, mutate } = useWorkflowHeaders();
  if (!data && isLoading) return <LoadingBlock rows={6} testId="tools-loading" />;
  if (!data) return <ErrorState error={error} onRetry={() => void mutate()} />;
  const tools = toolHeaders(data).filter((tool) => !filter || filter(tool.name));
  if (tools.length === 0) return <EmptyState testId="tools-empty" description="No tools yet." />;
  const cards: ReactNode[] = tools.map((tool) => (
    <WorkflowCard key={tool.name} header={{ ...tool, standalone: tool.standalone ?? true }} isNew={tool.isNew} />
  ));
  return (
    <div className="crafter-grid" data-testid="tools-grid">
      {cards}
    </div>
  );
}
