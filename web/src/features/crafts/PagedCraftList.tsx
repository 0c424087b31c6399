import { Flex, Pagination } from "antd";
import type { ReactNode } from "react";
import { useSearchParams } from "react-router-dom";
import { useCrafts } from "../../api/hooks/crafts";
import { CRAFTS_PAGE_SIZE, type CraftListFilter } from "../../api/keys";
import { LinkButton } from "../../shared/LinkButton";
import { EmptyState, ErrorState, LoadingBlock } from "../../shared/states";
import { CraftSummaryList } from "./CraftSummaryList";

export function pageFrom(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page > 0 ? page : 1;
}

/**
 * One page (?page=) of `GET /api/workflowsV2` with a filter: loading, error with retry, empty
 * (first page) and past-the-end states, and pagination. `onTotal` reports the count for headings.
 */
export function PagedCraftList({
  filter,
  testId,
  empty,
  emptyAction,
}: {
  filter?: CraftListFilter;
  testId: string;
  empty: ReactNode;
  emptyAction?: ReactNode;
}) {
  const [params, setParams] = useSearchParams();
  const page = pageFrom(params.get("page"));
  const { data, error, isLoading, isValidating, mutate } = useCrafts(page, CRAFTS_PAGE_SIZE, filter);

  if (!data && isLoading) return <LoadingBlock rows={6} testId={`${testId}-loading`} />;
  if (!data) return <ErrorState error={error} onRetry={() => void mutate()} />;
  if (data.crafts.length === 0 && page === 1) {
    return <EmptyState testId={`${testId}-empty`} description={empty} action={emptyAction} />;
  }
  if (data.crafts.length === 0) {
    return (
      <EmptyState
        description="This page is empty."
        action={
          <LinkButton to="?" type="primary">
            Back to the first page
          </LinkButton>
        }
      />
    );
  }
  return (
    <Flex vertical gap={16} aria-busy={isValidating}>
      <CraftSummaryList
        crafts={data.crafts}
        testId={testId}
        dateField={filter?.sort === "updated" ? "updated" : "created"}
      />
      {data.total > CRAFTS_PAGE_SIZE && (
        <Pagination
          align="end"
          current={data.page || page}
          pageSize={CRAFTS_PAGE_SIZE}
          total={data.total}
          showSizeChanger={false}
          onChange={(next) => {
            const nextParams = new URLSearchParams(params);
            if (next === 1) nextParams.delete("page");
            else nextParams.set("page", String(next));
            setParams(nextParams);
          }}
          data-testid={`${testId}-pagination`}
        />
      )}
    </Flex>
  );
}
