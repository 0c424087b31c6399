import { Card, Flex, Space, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { type Invoice, useInvoices } from "../../api/billing";
import { formatDateTime } from "../../shared/format";
import { ErrorState } from "../../shared/states";
import { money } from "./money";

const STATUS_COLORS: Record<string, string> = { paid: "green", open: "blue", uncollectible: "red", void: "default" };

/** /app/settings/payment-history: the user's invoices (from Stripe's webhooks) with amount, status and PDF. */
export default function PaymentHistoryPage() {
  const [page, setPage] = useState(1);
  const invoices = useInvoices(page);
  return (
    <Flex vertical gap={24} style={{ maxWidth: 960 }} data-testid="payment-history-page">
      <Typography.Title level={2} style={{ margin: 0 }}>
        Payment history
      </Typography.Title>
      <Card>
        {invoices.error ? (
          <ErrorState error={invoices.error} onRetry={() => void invoices.mutate()} />
        ) : (
          <Table<Invoice>
            data-testid="invoices"
            rowKey="id"
            size="small"
            loading={!invoices.data}
            dataSource={invoices.data?.result ?? []}
            scroll={{ x: true }}
            locale={{ emptyText: "No payments yet." }}
            pagination={{
              current: page,
              pageSize: 10,
              total: invoices.data?.meta.count ?? 0,
              onChange: setPage,
              showSizeChanger: false,
            }}
            columns={[
              { key: "date", title: "Date", render: (_, invoice) => formatDateTime(invoice.createdAt) },
              {
                key: "what",
                title: "Invoice",
                render: (_, invoice) => invoice.description || invoice.number || invoice.id,
              },
              {
                key: "amount",
                title: "Amount",
                align: "right",
                render: (_, invoice) => (
                  <span data-testid="invoice-amount">
                    {money(invoice.status === "paid" ? invoice.amountPaid : invoice.amountDue, invoice.currency)}
                  </span>
                ),
              },
              {
                key: "status",
                title: "Status",
                render: (_, invoice) => (
                  <Tag color={STATUS_COLORS[invoice.status]} data-testid="invoice-status">
                    {invoice.status}
                  </Tag>
                ),
              },
              {
                key: "links",
                title: "",
                render: (_, invoice) => (
                  <Space>
                    {invoice.invoicePdf && (
                      <a href={invoice.invoicePdf} target="_blank" rel="noreferrer" data-testid="invoice-pdf">
                        PDF
                      </a>
                    )}
                    {invoice.hostedInvoiceUrl && (
                      <a href={invoice.hostedInvoiceUrl} target="_blank" rel="noreferrer">
                        View
                      </a>
                    )}
                  </Space>
                ),
              },
            ]}
          />
        )}
      </Card>
    </Flex>
  );
}
