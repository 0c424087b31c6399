import { EditOutlined } from "@ant-design/icons";
import { Card, Flex, Pagination, Typography } from "antd";
import type { ReactNode } from "react";
import { useSearchParams } from "react-router-dom";
import { useCrafts } from "../../api/hooks/crafts";
import { CRAFTS_PAGE_SIZE } from "../../api/keys";
import { LinkButton } from "../../shared/LinkButton";
import { EmptyState, ErrorState, LoadingBlock } from "../../shared/states";
import { CraftSummaryList } from "./CraftSummaryList";
import { newCraftHref } from "./links";

function pageFrom(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page > 0 ? page : 1;
}

/** /app/crafts ("Contents"): the user's crafts, newest first, one page at a time (?page=). */
export default function CraftsPage() {
  const [params, setParams] = useSearchParams();
  const page = pageFrom(params.get("page"));
  const { data, error, isLoading, isValidating, mutate } = useCrafts(page, CRAFTS_PAGE_SIZE);

  let body: ReactNode;
  if (!data && isLoading) body = <LoadingBlock rows={6} testId="crafts-loading" />;
  else if (!data) body = <ErrorState error={error} onRetry={() => void mutate()} />;
  else if (data.crafts.length === 0 && page === 1) {
    body = (
      <EmptyState
        testId="crafts-empty"
        description="No crafts yet. Your blog posts and other content will appear here."
        action={
          <LinkButton to={newCraftHref()} type="primary" data-testid="crafts-empty-cta">
            Craft a blog post
          </LinkButton>
        }
      />
    );
  } else if (data.crafts.length === 0) {
    body = (
      <EmptyState
        description="This page is empty."
        action={
          <LinkButton to="/app/crafts" type="primary">
            Back to the first page
          </LinkButton>
        }
      />
    );
  } else {
    body = (
      <Flex vertical gap={16} aria-busy={isValidating}>
        <CraftSummaryList crafts={data.crafts} testId="crafts-list" />
        {data.total > CRAFTS_PAGE_SIZE && (
          <Pagination
            align="end"
            current={data.page || page}
            pageSize={CRAFTS_PAGE_SIZE}
            total={data.total}
            showSizeChanger={false}
            onChange={(next) => setParams(next === 1 ? {} : { page: String(next) })}
            data-testid="crafts-pagination"
          />
        )}
      </Flex>
    );
  }

  return (
    <Flex vertical gap={24}>
      <Flex justify="space-between" align="center" wrap gap={16}>
        <div>
          <Typography.Title level={2} style={{ margin: 0 }}>
            Contents
          </Typography.Title>
          <Typography.Text type="secondary">
            {data ? `${data.total} ${data.total === 1 ? "craft" : "crafts"}` : "Everything you have crafted"}
          </Typography.Text>
        </div>
        <LinkButton to={newCraftHref()} type="primary" icon={<EditOutlined />} data-testid="crafts-new-blog-post">
          Craft a blog post
        </LinkButton>
      </Flex>
      <Card>{body}</Card>
    </Flex>
  );
}
