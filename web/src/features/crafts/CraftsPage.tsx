import { EditOutlined } from "@ant-design/icons";
import { Card, Checkbox, Flex, Input, Segmented, Select, Typography } from "antd";
import { useEffect, useMemo, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { useInitial } from "../../api/hooks/app";
import { useWorkflowHeaders } from "../../api/hooks/crafts";
import type { CraftListFilter } from "../../api/keys";
import { LinkButton } from "../../shared/LinkButton";
import { newCraftHref } from "./links";
import { PagedCraftList } from "./PagedCraftList";

const STATES = [
  { value: "NotStarted", label: "Not started" },
  { value: "InProgress", label: "In progress" },
  { value: "Completed", label: "Completed" },
] as const;

type StateFilter = (typeof STATES)[number]["value"];

/** The Contents filters as they are kept in the URL (so a search can be shared and survives a reload). */
export function filterFromParams(params: URLSearchParams, activeProfileId?: string | null): CraftListFilter {
  const state = params.get("state");
  return {
    q: params.get("q") ?? undefined,
    workflowName: params.get("type") ?? undefined,
    state: STATES.some((s) => s.value === state) ? (state as StateFilter) : undefined,
    profileId: params.get("profile") === "active" && activeProfileId ? activeProfileId : undefined,
    favorites: params.get("favorites") === "1",
    sort: params.get("sort") === "updated" ? "updated" : "created",
  };
}

/**
 * /app/crafts ("Contents"): the user's crafts, searched by words of their name and text, filtered by
 * type, status, the active profile and favourite, newest first by creation or last change (the row
 * shows the date sorted by), one page at a time. Every filter is in the URL.
 */
export default function CraftsPage() {
  const [params, setParams] = useSearchParams();
  const { data: initial } = useInitial();
  const { data: headers } = useWorkflowHeaders();
  const activeProfile = initial?.activeProjectInfo?.profile ?? null;
  const filter = filterFromParams(params, activeProfile?.profileId);
  const [query, setQuery] = useState(params.get("q") ?? "");
  useEffect(() => setQuery(params.get("q") ?? ""), [params]);

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    next.delete("page");
    setParams(next);
  };
  const typeOptions = useMemo(
    () =>
      (headers?.headers ?? [])
        .map((header) => ({ value: header.name, label: header.title || header.name }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    [headers],
  );
  const filtered = Boolean(
    filter.q?.trim() || filter.workflowName || filter.state || filter.profileId || filter.favorites,
  );

  return (
    <Flex vertical gap={24}>
      <Flex justify="space-between" align="center" wrap gap={16}>
        <div>
          <Typography.Title level={2} style={{ margin: 0 }}>
            Contents
          </Typography.Title>
          <Typography.Text type="secondary">Everything you have crafted</Typography.Text>
        </div>
        <LinkButton to={newCraftHref()} type="primary" icon={<EditOutlined />} data-testid="crafts-new-blog-post">
          Craft a blog post
        </LinkButton>
      </Flex>
      <Card>
        <Flex vertical gap={16}>
          <Flex gap={12} wrap align="center" role="search" aria-label="Search and filter your crafts">
            <Input.Search
              allowClear
              placeholder="Search by name or text"
              aria-label="Search crafts"
              value={query}
              maxLength={200}
              onChange={(event) => {
                setQuery(event.target.value);
                if (!event.target.value) update({ q: null });
              }}
              onSearch={(value) => update({ q: value.trim() || null })}
              style={{ flex: "1 1 240px", maxWidth: 360 }}
              data-testid="crafts-search"
            />
            <Select
              allowClear
              placeholder="Any type"
              aria-label="Type"
              options={typeOptions}
              value={filter.workflowName || undefined}
              onChange={(value?: string) => update({ type: value ?? null })}
              style={{ minWidth: 160 }}
              showSearch
              optionFilterProp="label"
              data-testid="crafts-filter-type"
            />
            <Select
              allowClear
              placeholder="Any status"
              aria-label="Status"
              options={STATES.map((state) => ({ ...state }))}
              value={filter.state}
              onChange={(value?: string) => update({ state: value ?? null })}
              style={{ minWidth: 140 }}
              data-testid="crafts-filter-state"
            />
            {activeProfile && (
              <Checkbox
                checked={params.get("profile") === "active"}
                onChange={(event) => update({ profile: event.target.checked ? "active" : null })}
                data-testid="crafts-filter-profile"
              >
                For {activeProfile.name || "the active profile"}
              </Checkbox>
            )}
            <Checkbox
              checked={filter.favorites}
              onChange={(event) => update({ favorites: event.target.checked ? "1" : null })}
              data-testid="crafts-filter-favorites"
            >
              Favourites
            </Checkbox>
            <Segmented
              aria-label="Sort by"
              value={filter.sort}
              onChange={(value) => update({ sort: value === "updated" ? "updated" : null })}
              options={[
                { value: "created", label: "Newest" },
                { value: "updated", label: "Last updated" },
              ]}
              data-testid="crafts-sort"
            />
          </Flex>
          <PagedCraftList
            filter={filter}
            testId="crafts-list"
            empty={
              filtered
                ? "No craft matches. Try other words or fewer filters."
                : "No crafts yet. Your blog posts and other content will appear here."
            }
            emptyAction={
              filtered ? undefined : (
                <LinkButton to={newCraftHref()} type="primary" data-testid="crafts-empty-cta">
                  Craft a blog post
                </LinkButton>
              )
            }
          />
        </Flex>
      </Card>
    </Flex>
  );
}
