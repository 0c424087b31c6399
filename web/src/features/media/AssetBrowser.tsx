import { Flex, Input, Pagination, Select } from "antd";
import type { ReactNode } from "react";
import { type Asset, type AssetFilter, type AssetType, useAssets } from "../../api/media";
import { EmptyState, ErrorState, LoadingBlock } from "../../shared/states";

export const SOURCE_OPTIONS = [
  { value: "", label: "All sources" },
  { value: "direct", label: "Uploaded" },
  { value: "AI", label: "AI" },
  { value: "composed", label: "Composed" },
  { value: "designer", label: "Designer" },
  { value: "unsplash", label: "Unsplash" },
  { value: "system", label: "System" },
];

export interface BrowserState {
  q: string;
  source: string;
  page: number;
}

/**
 * One asset group (Image, Video or Audio): search and source filters, a grid of cards, and
 * pagination from the list's meta (count, currentPage, totalPages).
 */
export function AssetBrowser({
  type,
  state,
  onChange,
  renderCard,
  pageSize = 20,
  fixedSource,
  sources,
  empty,
  testId = "asset-grid",
}: {
  type: AssetType;
  state: BrowserState;
  onChange: (next: BrowserState) => void;
  renderCard: (asset: Asset) => ReactNode;
  pageSize?: number;
  fixedSource?: string;
  /** The sources offered (the first is the default); all sources when absent. */
  sources?: { value: string; label: string }[];
  empty?: ReactNode;
  testId?: string;
}) {
  const source = fixedSource ?? (state.source || sources?.[0]?.value || undefined);
  const filter: AssetFilter = {
    type,
    q: state.q,
    source,
    page: state.page,
    pageSize,
  };
  const { data, error, isLoading, isValidating, mutate } = useAssets(filter);

  return (
    <Flex vertical gap={16}>
      <Flex gap={8} wrap>
        <Input.Search
          allowClear
          placeholder={`Search ${type === "audio" ? "audio" : `${type}s`}`}
          defaultValue={state.q}
          onSearch={(q) => onChange({ ...state, q, page: 1 })}
          style={{ maxWidth: 320, flex: "1 1 200px" }}
          aria-label="Search assets"
          data-testid="asset-search"
        />
        {!fixedSource && (
          <Select
            value={sources ? source : state.source}
            options={sources ?? SOURCE_OPTIONS}
            onChange={(source) => onChange({ ...state, source, page: 1 })}
            style={{ minWidth: 160 }}
            aria-label="Source"
            data-testid="asset-source"
          />
        )}
      </Flex>
      {!data && isLoading ? (
        <LoadingBlock rows={6} testId={`${testId}-loading`} />
      ) : !data ? (
        <ErrorState error={error} onRetry={() => void mutate()} />
      ) : data.result.length === 0 ? (
        <EmptyState
          testId={`${testId}-empty`}
          description={
            state.page > 1
              ? "This page is empty."
              : state.q || (state.source && !sources)
                ? "Nothing matches these filters."
                : (empty ?? `No ${type === "audio" ? "audio" : `${type}s`} yet.`)
          }
        />
      ) : (
        <>
          <ul className="crafter-asset-grid" data-testid={testId} aria-busy={isValidating}>
            {data.result.map((asset) => (
              <li key={asset.id}>{renderCard(asset)}</li>
            ))}
          </ul>
          {data.meta.totalPages > 1 && (
            <Pagination
              align="end"
              current={data.meta.currentPage || state.page}
              pageSize={pageSize}
              total={data.meta.count}
              showSizeChanger={false}
              onChange={(page) => onChange({ ...state, page })}
              data-testid={`${testId}-pagination`}
            />
          )}
        </>
      )}
    </Flex>
  );
}
