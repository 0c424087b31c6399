import {
  DeleteOutlined,
  DownloadOutlined,
  DownOutlined,
  PlusOutlined,
  SettingOutlined,
  TagsOutlined,
  UploadOutlined,
} from "@ant-design/icons";
import {
  App,
  Button,
  Card,
  Checkbox,
  Dropdown,
  Flex,
  Input,
  Modal,
  Popover,
  Select,
  Space,
  Table,
  type TableProps,
  Tag,
  Typography,
} from "antd";
import { useEffect, useMemo, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router-dom";
import {
  CONTACTS_PAGE_SIZE,
  contactKeys,
  download,
  itemsOf,
  useContacts,
  useContactTypes,
  useContactWrites,
  useCustomFields,
  useSegments,
} from "../../api/contacts";
import { CONSENT_STATUSES, type Contact, type ContactListQuery, CUSTOMER_KINDS } from "../../api/contacts/types";
import { useSettings, useUpdateSettings } from "../../api/hooks/app";
import { ChipInput } from "../../shared/ChipInput";
import { countLabel } from "../../shared/format";
import { LinkButton } from "../../shared/LinkButton";
import { notify } from "../../shared/notify";
import { EmptyState, ErrorState } from "../../shared/states";
import { TABLE_ACTIONS } from "../../shared/table";
import { useAction } from "../../shared/use-action";
import { ConsentSummary } from "./ConsentSummary";
import { type ColumnDef, cellText, columnCatalogue, toggleColumn, visibleColumns } from "./columns";
import { useContactErrorHandler } from "./errors";
import { CONTACT_PAGES } from "./paths";

const CONSENT_COLORS: Record<string, string> = {
  subscribed: "green",
  pending: "gold",
  unsubscribed: "default",
  bounced: "red",
  complained: "volcano",
};

export function ConsentTag({ status }: { status?: string }) {
  if (!status) return null;
  return <Tag color={CONSENT_COLORS[status] ?? "default"}>{status}</Tag>;
}

function formatDate(value: string | undefined): string {
  if (!value) return "";
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleDateString();
}

/** The list query as kept in the URL (so a reload or a shared link shows the same page). */
function useListQuery(): [ContactListQuery, (patch: Partial<ContactListQuery>) => void] {
  const [params, setParams] = useSearchParams();
  const query: ContactListQuery = {
    page: Number(params.get("page")) || 1,
    pageSize: Number(params.get("pageSize")) || CONTACTS_PAGE_SIZE,
    sort: params.get("sort") ?? undefined,
    order: params.get("order") === "desc" ? "desc" : params.get("sort") ? "asc" : undefined,
    q: params.get("q") ?? undefined,
    tags: params.get("tags")?.split(",").filter(Boolean),
    consent: params.get("consent") ?? undefined,
    contactType: params.get("contactType") ?? undefined,
    customerKind: params.get("customerKind") ?? undefined,
    segmentId: params.get("segmentId") ?? undefined,
  };
  const update = (patch: Partial<ContactListQuery>) => {
    const next = { ...query, ...patch };
    const out = new URLSearchParams();
    for (const [key, value] of Object.entries(next)) {
      if (value === undefined || value === null || value === "") continue;
      if (Array.isArray(value)) {
        if (value.length) out.set(key, value.join(","));
      } else out.set(key, String(value));
    }
    if (out.get("page") === "1") out.delete("page");
    if (out.get("pageSize") === String(CONTACTS_PAGE_SIZE)) out.delete("pageSize");
    setParams(out, { replace: true });
  };
  return [query, update];
}

/** /app/contacts: the customer profile table (server-side paging, sort, search, filters, bulk actions). */
export default function ContactsPage() {
  const { modal } = App.useApp();
  const [query, setQuery] = useListQuery();
  const [search, setSearch] = useState(query.q ?? "");
  // Search as the user types: the query follows the box 300 ms after the last keystroke.
  const setQueryLater = useRef(setQuery);
  setQueryLater.current = setQuery;
  useEffect(() => {
    const typed = search.trim();
    if (typed === (query.q ?? "")) return;
    const timer = setTimeout(() => setQueryLater.current({ q: typed || undefined, page: 1 }), 300);
    return () => clearTimeout(timer);
  }, [search, query.q]);
  const { data, error, isLoading, mutate } = useContacts(query);
  const customFields = useCustomFields();
  const contactTypes = useContactTypes();
  const settings = useSettings();
  const saveSettings = useUpdateSettings();
  const columnsSaving = useAction(saveSettings, { error: "Could not save your columns" });
  const updateSettings = columnsSaving.run;
  const exporting = useAction(download, { error: "Export failed" });
  const writes = useContactWrites();
  const onError = useContactErrorHandler();
  const [selected, setSelected] = useState<string[]>([]);
  const [tagging, setTagging] = useState<"tag" | "untag" | null>(null);
  const [segmenting, setSegmenting] = useState(false);

  const catalogue = useMemo(() => columnCatalogue(customFields.data ?? []), [customFields.data]);
  const shown = visibleColumns(settings.customerProfileColumns, catalogue);
  const hasFilters = !!(
    query.q ||
    query.tags?.length ||
    query.consent ||
    query.contactType ||
    query.customerKind ||
    query.segmentId
  );

  const remove = (ids: string[]) =>
    modal.confirm({
      title: ids.length === 1 ? "Delete this contact?" : `Delete ${countLabel(ids.length, "contact")}?`,
      content: "They are deleted everywhere, with their interactions and consent history. This cannot be undone.",
      okText: "Delete",
      okButtonProps: { danger: true, "data-testid": "confirm-delete" },
      onOk: async () => {
        try {
          const { affected } = await writes.bulk({ ids, action: "delete" });
          notify.success(`${countLabel(affected, "contact")} deleted`);
          setSelected([]);
        } catch (err) {
          onError(err, "Could not delete");
        }
      },
    });

  const toColumn = (column: ColumnDef): NonNullable<TableProps<Contact>["columns"]>[number] => {
    const base = {
      key: column.key,
      title: column.title,
      sorter: column.sort ? true : undefined,
      sortOrder:
        column.sort && query.sort === column.sort ? (query.order === "desc" ? "descend" : "ascend") : undefined,
    } as const;
    switch (column.key) {
      case "name":
        return {
          ...base,
          render: (_: unknown, contact: Contact) => (
            <Link to={CONTACT_PAGES.contact(contact.id)} data-testid="contact-link">
              {cellText(contact, "name") || contact.email}
            </Link>
          ),
        };
      case "tags":
        return {
          ...base,
          render: (_: unknown, contact: Contact) => (
            <Flex wrap gap={4}>
              {(contact.tags ?? []).map((tag) => (
                <Tag key={tag}>{tag}</Tag>
              ))}
            </Flex>
          ),
        };
      case "consent":
        return { ...base, render: (_: unknown, contact: Contact) => <ConsentTag status={contact.consent} /> };
      case "customerSince":
      case "updated_on":
        return { ...base, render: (_: unknown, contact: Contact) => formatDate(cellText(contact, column.key)) };
      case "action":
        return {
          ...base,
          width: 120,
          // Actions stay in view while a phone scrolls the table sideways.
          fixed: "right" as const,
          className: TABLE_ACTIONS,
          render: (_: unknown, contact: Contact) => (
            <Space size={4}>
              <LinkButton to={CONTACT_PAGES.contact(contact.id)} size="small">
                Open
              </LinkButton>
              <Button
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={`Delete ${contact.email}`}
                onClick={() => remove([contact.id])}
              />
            </Space>
          ),
        };
      default:
        return { ...base, render: (_: unknown, contact: Contact) => cellText(contact, column.key) };
    }
  };

  const onTableChange: TableProps<Contact>["onChange"] = (pagination, _filters, sorter) => {
    const one = Array.isArray(sorter) ? sorter[0] : sorter;
    const column = catalogue.find((c) => c.key === one?.columnKey);
    const sort = one?.order && column?.sort ? column.sort : undefined;
    setQuery({
      page: pagination.current ?? 1,
      pageSize: pagination.pageSize ?? CONTACTS_PAGE_SIZE,
      sort,
      order: sort ? (one?.order === "descend" ? "desc" : "asc") : undefined,
    });
  };

  const picker = (
    <Flex vertical gap={6} data-testid="column-picker" style={{ maxHeight: 360, overflow: "auto" }}>
      {catalogue.map((column) => (
        <Checkbox
          key={column.key}
          checked={shown.some((c) => c.key === column.key)}
          onChange={(event) =>
            updateSettings({
              customerProfileColumns: toggleColumn(
                settings.customerProfileColumns,
                catalogue,
                column.key,
                event.target.checked,
              ),
            })
          }
          data-testid={`column-${column.key}`}
        >
          {column.title}
        </Checkbox>
      ))}
    </Flex>
  );

  const exportCsv = () => void exporting.run(contactKeys.exportCsv(query), "contacts.csv");

  // The service may answer a null for a contact deleted while the page was read.
  const contacts = (data?.result ?? []).filter((contact): contact is Contact => !!contact);
  const meta = data?.meta;

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="center" wrap gap={12}>
        <div>
          <Typography.Title level={2} style={{ margin: 0 }}>
            Contacts
          </Typography.Title>
          <Typography.Text type="secondary">Your customer profiles</Typography.Text>
        </div>
        <Flex wrap gap={8}>
          <LinkButton to={CONTACT_PAGES.add} type="primary" icon={<PlusOutlined />} data-testid="contacts-add">
            Add contact
          </LinkButton>
          <LinkButton to={CONTACT_PAGES.import} icon={<UploadOutlined />} data-testid="contacts-import">
            Import CSV
          </LinkButton>
          <Dropdown
            menu={{
              items: [
                { key: "f", label: <Link to={CONTACT_PAGES.customFields}>Custom fields</Link> },
                { key: "i", label: <Link to={CONTACT_PAGES.interactionTypes}>Interaction types</Link> },
                { key: "t", label: <Link to={CONTACT_PAGES.contactTypes}>Contact types</Link> },
              ],
            }}
          >
            <Button icon={<SettingOutlined />} aria-label="Contact settings">
              Settings <DownOutlined />
            </Button>
          </Dropdown>
        </Flex>
      </Flex>
      <Card>
        <Flex vertical gap={12}>
          <Flex wrap gap={8} align="center">
            <Input.Search
              allowClear
              placeholder="Search name, email or company"
              aria-label="Search contacts"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              onSearch={(value) => setQuery({ q: value || undefined, page: 1 })}
              style={{ width: 280, maxWidth: "100%" }}
              data-testid="contacts-search"
            />
            <ChipInput
              aria-label="Filter by tags"
              placeholder="Tags"
              value={query.tags ?? []}
              onChange={(tags) => setQuery({ tags, page: 1 })}
              data-testid="contacts-filter-tags"
            />
            <Select
              allowClear
              placeholder="Consent"
              aria-label="Filter by consent"
              style={{ width: 150 }}
              value={query.consent}
              onChange={(consent) => setQuery({ consent, page: 1 })}
              options={CONSENT_STATUSES.map((value) => ({ value, label: value }))}
              data-testid="contacts-filter-consent"
            />
            <Select
              allowClear
              placeholder="Contact type"
              aria-label="Filter by contact type"
              style={{ width: 160 }}
              value={query.contactType}
              onChange={(contactType) => setQuery({ contactType, page: 1 })}
              options={(contactTypes.data ?? []).map((type) => ({ value: type.key, label: type.label }))}
            />
            <Select
              allowClear
              placeholder="Customer kind"
              aria-label="Filter by customer kind"
              style={{ width: 170 }}
              value={query.customerKind}
              onChange={(customerKind) => setQuery({ customerKind, page: 1 })}
              options={CUSTOMER_KINDS.map((kind) => ({ value: kind.value, label: kind.label }))}
            />
            <Popover content={picker} trigger="click" title="Columns" placement="bottomRight">
              <Button data-testid="columns-button">Columns</Button>
            </Popover>
            <Button icon={<DownloadOutlined />} onClick={exportCsv} data-testid="contacts-export">
              Export CSV
            </Button>
          </Flex>
          {meta?.consent && (
            <ConsentSummary
              counts={meta.consent}
              active={query.consent}
              onFilter={(consent) => setQuery({ consent, page: 1 })}
              askTarget={query.segmentId ? { segmentId: query.segmentId } : {}}
            />
          )}
          {query.segmentId && (
            <Flex gap={8} align="center" data-testid="segment-filter">
              <Typography.Text>Showing one segment's contacts.</Typography.Text>
              <Button size="small" onClick={() => setQuery({ segmentId: undefined, page: 1 })}>
                Show all
              </Button>
            </Flex>
          )}
          {selected.length > 0 && (
            <Flex wrap gap={8} align="center" data-testid="bulk-bar">
              <Typography.Text strong>{selected.length} selected</Typography.Text>
              <Button icon={<TagsOutlined />} onClick={() => setTagging("tag")} data-testid="bulk-tag">
                Tag
              </Button>
              <Button onClick={() => setTagging("untag")}>Remove tag</Button>
              <Button onClick={() => setSegmenting(true)} data-testid="bulk-segment">
                Add to segment
              </Button>
              <Button danger icon={<DeleteOutlined />} onClick={() => remove(selected)} data-testid="bulk-delete">
                Delete
              </Button>
            </Flex>
          )}
          {error && !data ? (
            <ErrorState error={error} onRetry={() => void mutate()} title="We could not load your contacts" />
          ) : !isLoading && contacts.length === 0 && !hasFilters && (meta?.currentPage ?? 1) === 1 ? (
            <EmptyState
              testId="contacts-empty"
              description="No contacts yet. Add one, import a CSV, or share your lead form."
              action={
                <Space wrap>
                  <LinkButton to={CONTACT_PAGES.add} type="primary">
                    Add contact
                  </LinkButton>
                  <LinkButton to={CONTACT_PAGES.import}>Import CSV</LinkButton>
                </Space>
              }
            />
          ) : (
            <Table<Contact>
              rowKey="id"
              data-testid="contacts-table"
              loading={isLoading}
              dataSource={contacts}
              columns={shown.map(toColumn)}
              onChange={onTableChange}
              scroll={{ x: "max-content" }}
              size="middle"
              rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]) }}
              locale={{ emptyText: "No contacts match these filters." }}
              pagination={{
                current: meta?.currentPage ?? query.page,
                pageSize: query.pageSize,
                total: meta?.count ?? 0,
                showSizeChanger: true,
                pageSizeOptions: [10, 20, 50, 100],
                showTotal: (total) => countLabel(total, "contact"),
                responsive: true,
              }}
            />
          )}
        </Flex>
      </Card>
      <TagModal
        mode={tagging}
        onClose={() => setTagging(null)}
        onSubmit={async (tags) => {
          try {
            const { affected } = await writes.bulk({ ids: selected, action: tagging ?? "tag", tags });
            notify.success(`${countLabel(affected, "contact")} updated`);
            setTagging(null);
          } catch (err) {
            onError(err, "Could not tag");
          }
        }}
      />
      <SegmentModal
        open={segmenting}
        onClose={() => setSegmenting(false)}
        onSubmit={async (segmentId) => {
          try {
            const { affected } = await writes.bulk({ ids: selected, action: "addToSegment", segmentId });
            notify.success(`${countLabel(affected, "contact")} added to the segment`);
            setSegmenting(false);
          } catch (err) {
            onError(err, "Could not add to the segment");
          }
        }}
      />
    </Flex>
  );
}

function TagModal({
  mode,
  onClose,
  onSubmit,
}: {
  mode: "tag" | "untag" | null;
  onClose: () => void;
  onSubmit: (tags: string[]) => Promise<void>;
}) {
  const [tags, setTags] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      open={mode !== null}
      title={mode === "untag" ? "Remove tags" : "Add tags"}
      okText={mode === "untag" ? "Remove" : "Add tags"}
      okButtonProps={{ disabled: tags.length === 0, loading: busy, "data-testid": "bulk-tag-submit" }}
      onCancel={onClose}
      afterClose={() => setTags([])}
      onOk={async () => {
        setBusy(true);
        await onSubmit(tags).finally(() => setBusy(false));
      }}
      destroyOnHidden
    >
      <ChipInput value={tags} onChange={setTags} aria-label="Tags" maxLength={50} data-testid="bulk-tag-input" />
    </Modal>
  );
}

function SegmentModal({
  open,
  onClose,
  onSubmit,
}: {
  open: boolean;
  onClose: () => void;
  onSubmit: (segmentId: string) => Promise<void>;
}) {
  const segments = useSegments();
  const [segmentId, setSegmentId] = useState<string>();
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      open={open}
      title="Add to segment"
      okText="Add"
      okButtonProps={{ disabled: !segmentId, loading: busy }}
      onCancel={onClose}
      onOk={async () => {
        if (!segmentId) return;
        setBusy(true);
        await onSubmit(segmentId).finally(() => setBusy(false));
      }}
    >
      <Select
        style={{ width: "100%" }}
        placeholder="Choose a segment"
        aria-label="Segment"
        loading={segments.isLoading}
        value={segmentId}
        onChange={setSegmentId}
        options={itemsOf(segments.data).map((segment) => ({ value: segment.id, label: segment.name }))}
        notFoundContent={<Link to={CONTACT_PAGES.segments}>Create a segment first</Link>}
      />
    </Modal>
  );
}
