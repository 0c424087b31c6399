import "react-querybuilder/dist/query-builder.css";
import { Alert, Button, Card, Col, Flex, Input, Row, Statistic, Table, Typography } from "antd";
import { useEffect, useMemo, useState } from "react";
import { type Field, QueryBuilder, type RuleGroupType } from "react-querybuilder";
import { useNavigate, useParams } from "react-router-dom";
import { useSWRConfig } from "swr";
import {
  contactKeys,
  previewSegment,
  saveSegment,
  useContactTypes,
  useCustomFields,
  useInteractionTypes,
  useSegment,
} from "../../api/contacts";
import {
  type ConsentAskTarget,
  type ConsentCounts,
  type Contact,
  queryOf,
  type SegmentPreview,
  type SegmentQuery,
} from "../../api/contacts/types";
import { isApiError } from "../../api/errors";
import { countLabel, formatNumber } from "../../shared/format";
import { LinkButton } from "../../shared/LinkButton";
import { ErrorState, LoadingBlock } from "../../shared/states";
import { useAction } from "../../shared/use-action";
import { AskPermissionButton } from "./AskPermission";
import { ConsentTag } from "./ContactsPage";
import { cellText } from "./columns";
import { CONTACT_PAGES } from "./paths";
import {
  defaultValueFor,
  editorFor,
  incompleteRules,
  OPERATOR_LABELS,
  OPERATORS_BY_KIND,
  type SegmentField,
  segmentFields,
  toBuilderQuery,
  toStoredQuery,
} from "./segment-query";

const PREVIEW_DEBOUNCE_MS = 400;

/** /app/segments/:segmentId ("new" for a new one): the condition builder, live count and preview, save. */
export default function SegmentPage() {
  const { segmentId } = useParams();
  const isNew = !segmentId || segmentId === "new";
  const segment = useSegment(isNew ? undefined : segmentId);
  const customFields = useCustomFields();
  const interactionTypes = useInteractionTypes();
  const contactTypes = useContactTypes();

  const failed = segment.error ?? customFields.error ?? interactionTypes.error ?? contactTypes.error;
  const loaded = (isNew || segment.data) && customFields.data && interactionTypes.data && contactTypes.data;
  if (failed && !loaded) {
    return (
      <ErrorState
        error={failed}
        onRetry={() => {
          void segment.mutate();
          void customFields.mutate();
          void interactionTypes.mutate();
          void contactTypes.mutate();
        }}
      />
    );
  }
  if (!loaded) return <LoadingBlock rows={8} testId="segment-loading" />;
  const fields = segmentFields(customFields.data!, interactionTypes.data!, contactTypes.data!);
  return (
    <SegmentEditor
      key={segmentId}
      id={isNew ? undefined : segmentId}
      initialName={segment.data?.name ?? ""}
      initialQuery={segment.data ? queryOf(segment.data) : undefined}
      fields={fields}
    />
  );
}

function SegmentEditor({
  id,
  initialName,
  initialQuery,
  fields,
}: {
  id: string | undefined;
  initialName: string;
  initialQuery: SegmentQuery | undefined;
  fields: SegmentField[];
}) {
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const [name, setName] = useState(initialName);
  const [query, setQuery] = useState<RuleGroupType>(() => toBuilderQuery(initialQuery, fields) as RuleGroupType);
  const [preview, setPreview] = useState<SegmentPreview | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [counting, setCounting] = useState(false);
  const [nameError, setNameError] = useState<string | null>(null);
  const saving = useAction(saveSegment, {
    error: "Could not save the segment",
    success: "Segment saved",
    revalidate: [contactKeys.segments(), contactKeys.segmentsWithCounts()],
    onError: (error) => {
      if (!isApiError(error) || !error.fields.name) return false;
      setNameError(error.fields.name);
      return true;
    },
  });

  const byName = useMemo(() => new Map(fields.map((field) => [field.name, field])), [fields]);
  const rqbFields = useMemo<Field[]>(
    () =>
      fields.map((field) => ({
        name: field.name,
        label: field.group === "Contact" ? field.label : `${field.group}: ${field.label}`,
        operators: OPERATORS_BY_KIND[field.kind].map((op) => ({ name: op, label: OPERATOR_LABELS[op] })),
        values:
          field.kind === "boolean"
            ? [
                { name: "true", label: "Yes" },
                { name: "false", label: "No" },
              ]
            : field.values,
        inputType: field.kind === "date" ? "date" : field.kind === "number" ? "number" : "text",
      })),
    [fields],
  );
  const stored = useMemo(() => toStoredQuery(query as SegmentQuery, fields), [query, fields]);
  const incomplete = incompleteRules(query as SegmentQuery);
  const storedJson = JSON.stringify(stored);

  // Live count and preview: debounced, the previous request aborted when the query changes.
  useEffect(() => {
    if (incomplete > 0) return;
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      setCounting(true);
      previewSegment(JSON.parse(storedJson) as SegmentQuery, controller.signal)
        .then((result) => {
          setPreview(result);
          setPreviewError(null);
        })
        .catch((error) => {
          if (!controller.signal.aborted) setPreviewError(isApiError(error) ? error.message : String(error));
        })
        .finally(() => {
          if (!controller.signal.aborted) setCounting(false);
        });
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [storedJson, incomplete]);

  const save = async () => {
    if (!name.trim()) {
      setNameError("A name is required");
      return;
    }
    const saved = await saving.run(id, { name: name.trim(), query: stored });
    if (!saved) return;
    await mutate(contactKeys.segment(saved.id), saved, { revalidate: false });
    if (!id) navigate(CONTACT_PAGES.segment(saved.id), { replace: true });
  };

  return (
    <Flex vertical gap={16}>
      <div>
        <LinkButton to={CONTACT_PAGES.segments} type="link" style={{ padding: 0 }}>
          ‹ Segments
        </LinkButton>
        <Typography.Title level={2} style={{ margin: 0 }}>
          {id ? initialName || "Segment" : "New segment"}
        </Typography.Title>
      </div>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={15}>
          <Card title="Conditions">
            <Flex vertical gap={12}>
              <div>
                <label htmlFor="segment-name">
                  <Typography.Text strong>Name</Typography.Text>
                </label>
                <Input
                  id="segment-name"
                  value={name}
                  maxLength={100}
                  status={nameError ? "error" : undefined}
                  onChange={(event) => {
                    setName(event.target.value);
                    setNameError(null);
                  }}
                  data-testid="segment-name"
                />
                {nameError && <Typography.Text type="danger">{nameError}</Typography.Text>}
              </div>
              <div className="crafter-segment-builder" data-testid="segment-builder" style={{ overflowX: "auto" }}>
                <QueryBuilder
                  // Conditions wrap onto more lines on a phone instead of running past the card.
                  controlClassnames={{ queryBuilder: "queryBuilder-responsive" }}
                  fields={rqbFields}
                  query={query}
                  onQueryChange={setQuery}
                  combinators={[
                    { name: "and", label: "all of (and)" },
                    { name: "or", label: "any of (or)" },
                  ]}
                  showNotToggle
                  getValueEditorType={(field, operator) => editorFor(byName.get(field), operator)}
                  getValues={(field, operator) =>
                    operator === "hasValue"
                      ? [
                          { name: "true", label: "yes" },
                          { name: "false", label: "no (empty)" },
                        ]
                      : (rqbFields.find((f) => f.name === field)?.values ?? [])
                  }
                  getDefaultValue={(rule) => defaultValueFor(byName.get(rule.field), rule.operator)}
                  resetOnOperatorChange
                  translations={{
                    addRule: { label: "+ Condition", title: "Add a condition" },
                    addGroup: { label: "+ Group", title: "Add a group of conditions" },
                  }}
                />
              </div>
              {incomplete > 0 && (
                <Typography.Text type="secondary" data-testid="segment-incomplete">
                  Fill in {countLabel(incomplete, "condition")} to see the count.
                </Typography.Text>
              )}
              <div>
                <Button
                  type="primary"
                  onClick={save}
                  loading={saving.pending}
                  disabled={incomplete > 0}
                  data-testid="segment-save"
                >
                  Save segment
                </Button>
              </div>
            </Flex>
          </Card>
        </Col>
        <Col xs={24} xl={9}>
          <Card title="Matching contacts">
            <Statistic
              title="Contacts in this segment"
              value={preview?.count ?? "–"}
              loading={counting && !preview}
              valueStyle={{ opacity: counting ? 0.5 : 1 }}
              data-testid="segment-count"
            />
            {preview?.consent && (
              <ReachNote counts={preview.consent} target={id ? { segmentId: id } : { query: stored }} />
            )}
            {previewError && <Alert type="error" showIcon title={previewError} style={{ marginTop: 8 }} />}
            <Table<Contact>
              style={{ marginTop: 12 }}
              size="small"
              rowKey="id"
              pagination={false}
              scroll={{ x: "max-content" }}
              dataSource={(preview?.preview ?? []).filter((contact): contact is Contact => !!contact)}
              locale={{ emptyText: "No contacts match." }}
              data-testid="segment-preview"
              columns={[
                { title: "Name", key: "name", render: (_, c) => cellText(c, "name") || c.email },
                { title: "Email", dataIndex: "email" },
                { title: "Consent", key: "consent", render: (_, c) => <ConsentTag status={c.consent} /> },
              ]}
            />
          </Card>
        </Col>
      </Row>
    </Flex>
  );
}

/** Who of the matching contacts a campaign reaches, who it does not, and the way to ask the pending ones. */
function ReachNote({ counts, target }: { counts: ConsentCounts; target: ConsentAskTarget }) {
  const other = counts.bounced + counts.complained;
  const notReached = counts.total - counts.subscribed;
  return (
    <Flex vertical gap={6} style={{ marginTop: 8 }} data-testid="segment-reach">
      <Typography.Text>{countLabel(counts.subscribed, "subscribed contact")} would receive campaigns.</Typography.Text>
      {notReached > 0 && (
        <Typography.Text type="secondary" data-testid="segment-not-reached">
          {countLabel(notReached, "contact")} would not: {formatNumber(counts.pending)} pending,{" "}
          {formatNumber(counts.unsubscribed)} unsubscribed
          {other > 0 ? `, ${formatNumber(other)} bounced or complained` : ""}.
        </Typography.Text>
      )}
      {counts.pending > 0 && (
        <div>
          <AskPermissionButton size="small" ask={target} />
        </div>
      )}
    </Flex>
  );
}
