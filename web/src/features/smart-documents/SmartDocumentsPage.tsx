import { FileAddOutlined } from "@ant-design/icons";
import { Card, Flex, Segmented, Typography } from "antd";
import { useLocation, useNavigate } from "react-router-dom";
import { LinkButton } from "../../shared/LinkButton";
import { newStandaloneHref } from "../crafts/links";
import { PagedCraftList } from "../crafts/PagedCraftList";
import { ToolsGrid } from "../tools/ToolsGrid";

export const SMART_EDITOR = "SmartEditor";
export const SMART_DOCUMENTS_PATH = "/app/smart-documents";

const SECTIONS = [
  { value: SMART_DOCUMENTS_PATH, label: "Overview" },
  { value: `${SMART_DOCUMENTS_PATH}/tools`, label: "Tools" },
  { value: `${SMART_DOCUMENTS_PATH}/crafts`, label: "Documents" },
];

function SmartDocumentsShell({ children }: { children: React.ReactNode }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  return (
    <Flex vertical gap={24}>
      <Flex justify="space-between" align="center" wrap gap={16}>
        <div>
          <Typography.Title level={2} style={{ margin: 0 }}>
            Smart documents
          </Typography.Title>
          <Typography.Text type="secondary">Write freely, with AI commands in the editor.</Typography.Text>
        </div>
        <LinkButton
          to={newStandaloneHref(SMART_EDITOR)}
          type="primary"
          icon={<FileAddOutlined />}
          data-testid="smart-documents-new"
        >
          New smart document
        </LinkButton>
      </Flex>
      <Segmented
        value={SECTIONS.some((section) => section.value === pathname) ? pathname : SMART_DOCUMENTS_PATH}
        options={SECTIONS}
        onChange={(value) => navigate(String(value))}
        aria-label="Smart documents sections"
      />
      {children}
    </Flex>
  );
}

/** /app/smart-documents: the base page (recent documents). */
export default function SmartDocumentsPage() {
  return (
    <SmartDocumentsShell>
      <Card title="Recent documents">
        <PagedCraftList
          testId="smart-documents-list"
          filter={{ workflowName: SMART_EDITOR }}
          empty="No smart documents yet."
          emptyAction={
            <LinkButton to={newStandaloneHref(SMART_EDITOR)} type="primary">
              Start one
            </LinkButton>
          }
        />
      </Card>
    </SmartDocumentsShell>
  );
}

/** /app/smart-documents/tools. */
export function SmartDocumentsToolsPage() {
  return (
    <SmartDocumentsShell>
      <ToolsGrid />
    </SmartDocumentsShell>
  );
}

/** /app/smart-documents/crafts: every smart document, paginated. */
export function SmartDocumentsCraftsPage() {
  return (
    <SmartDocumentsShell>
      <Card>
        <PagedCraftList
          testId="smart-documents-crafts"
          filter={{ workflowName: SMART_EDITOR }}
          empty="No smart documents yet."
        />
      </Card>
    </SmartDocumentsShell>
  );
}
