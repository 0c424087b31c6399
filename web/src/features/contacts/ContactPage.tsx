import { DeleteOutlined, DownloadOutlined, EditOutlined } from "@ant-design/icons";
import {
  App,
  Button,
  Card,
  Col,
  DatePicker,
  Descriptions,
  Flex,
  Input,
  Row,
  Select,
  Space,
  Tag,
  Timeline,
  Typography,
} from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useState } from "react";
import { useNavigate, useParams } from "react-router-dom";
import {
  contactKeys,
  download,
  useContact,
  useContactTypes,
  useContactWrites,
  useCustomFields,
  useInteractions,
  useInteractionTypes,
} from "../../api/contacts";
import { type ContactDetail, CUSTOMER_KINDS, type CustomField } from "../../api/contacts/types";
import { isApiError } from "../../api/errors";
import { LinkButton } from "../../shared/LinkButton";
import { notify } from "../../shared/notify";
import { EmptyState, ErrorState, LoadingBlock } from "../../shared/states";
import { useAction } from "../../shared/use-action";
import { ContactForm } from "./ContactForm";
import { ConsentTag } from "./ContactsPage";
import { cellText, moneyText, updatedOn } from "./columns";
import { useContactErrorHandler } from "./errors";
import { CONTACT_PAGES } from "./paths";
import { contactToForm, toContactInput, typedCustomValues } from "./schema";

const when = (value: string | null | undefined) => (value ? dayjs(value).format("YYYY-MM-DD HH:mm") : "");

/** /app/contacts/:contactId: details, editing, tags, consent history and the interaction timeline. */
export default function ContactPage() {
  const { contactId } = useParams();
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const contact = useContact(contactId);
  const customFields = useCustomFields();
  const writes = useContactWrites();
  const onError = useContactErrorHandler();
  const [editing, setEditing] = useState(false);
  const exporting = useAction(download, { error: "Export failed" });

  if (contact.error && !contact.data) {
    const missing = isApiError(contact.error) && contact.error.status === 404;
    return missing ? (
      <EmptyState
        testId="contact-missing"
        description="This contact does not exist or was deleted."
        action={<LinkButton to={CONTACT_PAGES.contacts}>Back to contacts</LinkButton>}
      />
    ) : (
      <ErrorState error={contact.error} onRetry={() => void contact.mutate()} />
    );
  }
  if (!contact.data || !customFields.data) return <LoadingBlock rows={8} testId="contact-loading" />;
  const data = contact.data;
  const fields = customFields.data;
  const name = cellText(data, "name") || data.email;

  const remove = () =>
    modal.confirm({
      title: `Delete ${name}?`,
      content: "The contact is deleted everywhere, with interactions and consent history. This cannot be undone.",
      okText: "Delete",
      okButtonProps: { danger: true, "data-testid": "confirm-delete" },
      onOk: async () => {
        try {
          await writes.remove(data.id);
          notify.success("Contact deleted");
          navigate(CONTACT_PAGES.contacts);
        } catch (error) {
          onError(error, "Could not delete");
        }
      },
    });

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="center" wrap gap={12}>
        <div>
          <Typography.Title level={2} style={{ margin: 0 }} data-testid="contact-name">
            {name}
          </Typography.Title>
          <Space wrap>
            <Typography.Text type="secondary">{data.email}</Typography.Text>
            <ConsentTag status={data.consent} />
          </Space>
        </div>
        <Space wrap>
          <Button icon={<EditOutlined />} onClick={() => setEditing(!editing)} data-testid="contact-edit">
            {editing ? "Stop editing" : "Edit"}
          </Button>
          <Button
            icon={<DownloadOutlined />}
            loading={exporting.pending}
            onClick={() => void exporting.run(contactKeys.exportJson(data.id), `contact-${data.id}.json`)}
          >
            Export data
          </Button>
          <Button danger icon={<DeleteOutlined />} onClick={remove} data-testid="contact-delete">
            Delete
          </Button>
        </Space>
      </Flex>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={14}>
          <Card title="Details">
            {editing ? (
              <ContactForm
                customFields={fields}
                defaultValues={contactToForm(data, fields)}
                submitLabel="Save"
                onCancel={() => setEditing(false)}
                onSubmit={async (values) => {
                  try {
                    const input = toContactInput(values, fields);
                    await writes.update(data.id, {
                      ...input,
                      firstName: values.firstName.trim(),
                      lastName: values.lastName.trim(),
                      phone: values.phone.trim(),
                      company: values.company.trim(),
                      timeZone: values.timeZone,
                      customerKind: values.customerKind,
                      contactType: values.contactType,
                      tags: values.tags,
                      custom: typedCustomValues(values.custom, fields),
                    });
                    notify.success("Contact saved");
                    setEditing(false);
                    return undefined;
                  } catch (error) {
                    if (isApiError(error) && error.code === "CONTACT_EXISTS") {
                      return { email: "A contact with this email already exists" };
                    }
                    if (isApiError(error) && Object.keys(error.fields).length > 0) return error.fields;
                    onError(error, "Could not save");
                    return undefined;
                  }
                }}
              />
            ) : (
              <ContactDetails contact={data} customFields={fields} />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Flex vertical gap={16}>
            <Card title="Consent history">
              {data.consentHistory?.length ? (
                <Timeline
                  data-testid="consent-history"
                  items={[...data.consentHistory].reverse().map((change) => ({
                    children: (
                      <span>
                        <ConsentTag status={change.status} /> {when(change.at)}
                        {change.source ? ` · ${change.source}` : ""}
                      </span>
                    ),
                  }))}
                />
              ) : (
                <Typography.Text type="secondary">No consent changes recorded.</Typography.Text>
              )}
            </Card>
            <InteractionsCard contactId={data.id} />
          </Flex>
        </Col>
      </Row>
    </Flex>
  );
}

function ContactDetails({ contact, customFields }: { contact: ContactDetail; customFields: CustomField[] }) {
  const contactTypes = useContactTypes();
  const kind = CUSTOMER_KINDS.find((k) => k.value === contact.customerKind)?.label ?? contact.customerKind;
  const type = contactTypes.data?.find((t) => t.key === contact.contactType)?.label ?? contact.contactType;
  return (
    <Descriptions column={{ xs: 1, md: 2 }} size="small" data-testid="contact-details">
      <Descriptions.Item label="First name">{contact.firstName}</Descriptions.Item>
      <Descriptions.Item label="Last name">{contact.lastName}</Descriptions.Item>
      <Descriptions.Item label="Email">{contact.email}</Descriptions.Item>
      <Descriptions.Item label="Phone">{contact.phone}</Descriptions.Item>
      <Descriptions.Item label="Company">{contact.company}</Descriptions.Item>
      <Descriptions.Item label="Time zone">
        <span data-testid="contact-time-zone">{contact.timeZone || "The business's"}</span>
      </Descriptions.Item>
      <Descriptions.Item label="Customer kind">{kind}</Descriptions.Item>
      <Descriptions.Item label="Contact type">{type}</Descriptions.Item>
      <Descriptions.Item label="Source">{contact.source}</Descriptions.Item>
      <Descriptions.Item label="Customer since">{when(contact.customerSince)}</Descriptions.Item>
      <Descriptions.Item label="Updated on">{when(updatedOn(contact))}</Descriptions.Item>
      {/* What a connected store (Shopify) knows of the contact; absent otherwise. */}
      {typeof contact.orderCount === "number" ? (
        <Descriptions.Item label="Orders">{contact.orderCount}</Descriptions.Item>
      ) : null}
      {typeof contact.totalSpent === "number" ? (
        <Descriptions.Item label="Total spent">
          {moneyText(contact.totalSpent, contact.spentCurrency)}
        </Descriptions.Item>
      ) : null}
      <Descriptions.Item label="Tags" span={2}>
        <Flex wrap gap={4}>
          {(contact.tags ?? []).map((tag) => (
            <Tag key={tag}>{tag}</Tag>
          ))}
        </Flex>
      </Descriptions.Item>
      {customFields.map((field) => (
        <Descriptions.Item key={field.key} label={field.label}>
          {cellText(contact, `custom.${field.key}`)}
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}

function InteractionsCard({ contactId }: { contactId: string }) {
  const interactions = useInteractions(contactId);
  const types = useInteractionTypes();
  const writes = useContactWrites();
  const [type, setType] = useState<string>();
  const [note, setNote] = useState("");
  const [at, setAt] = useState<Dayjs>(dayjs());
  const adding = useAction(writes.addInteraction, {
    error: "Could not add the interaction",
    success: "Interaction added",
  });
  const busy = adding.pending;
  const label = (key: string) => types.data?.find((t) => t.key === key)?.label ?? key;

  const add = async () => {
    if (!type) return;
    const added = await adding.run(contactId, { type, note: note.trim(), occurredAt: at.toISOString() });
    if (added) setNote("");
  };

  const items = interactions.data?.result ?? [];
  return (
    <Card title="Interactions">
      <Flex vertical gap={8} style={{ marginBottom: 16 }}>
        <Select
          placeholder={types.data?.length === 0 ? "Add interaction types in Settings first" : "Type"}
          aria-label="Interaction type"
          value={type}
          onChange={setType}
          options={(types.data ?? []).map((t) => ({ value: t.key, label: t.label }))}
          data-testid="interaction-type"
        />
        <Input.TextArea
          aria-label="Note"
          placeholder="What happened?"
          value={note}
          maxLength={2000}
          autoSize={{ minRows: 2, maxRows: 6 }}
          onChange={(event) => setNote(event.target.value)}
          data-testid="interaction-note"
        />
        <Flex gap={8} wrap>
          <DatePicker
            showTime
            aria-label="When"
            value={at}
            allowClear={false}
            onChange={(value) => value && setAt(value)}
          />
          <Button type="primary" disabled={!type} loading={busy} onClick={add} data-testid="interaction-add">
            Add interaction
          </Button>
        </Flex>
      </Flex>
      {interactions.error && !interactions.data ? (
        <ErrorState error={interactions.error} onRetry={() => void interactions.mutate()} />
      ) : !interactions.data ? (
        <LoadingBlock rows={3} />
      ) : items.length === 0 ? (
        <Typography.Text type="secondary">No interactions yet.</Typography.Text>
      ) : (
        <Timeline
          data-testid="interaction-timeline"
          items={items.map((item, index) => ({
            key: item.id ?? String(index),
            children: (
              <div>
                <Typography.Text strong>{label(item.type)}</Typography.Text>{" "}
                <Typography.Text type="secondary">{when(item.occurredAt)}</Typography.Text>
                {item.note && <div style={{ whiteSpace: "pre-wrap" }}>{item.note}</div>}
              </div>
            ),
          }))}
        />
      )}
    </Card>
  );
}
