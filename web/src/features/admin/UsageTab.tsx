import { Card, Col, Flex, Row, Segmented, Statistic, Typography } from "antd";
import { useState } from "react";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { type DayStats, useUsage } from "../../api/admin";
import { ErrorState, LoadingBlock } from "../../shared/states";

const SERIES: { key: keyof DayStats; label: string; color: string }[] = [
  { key: "signups", label: "Sign-ups", color: "#6d28d9" },
  { key: "crafts", label: "Crafts", color: "#0ea5e9" },
  { key: "creditsGranted", label: "Credits granted", color: "#16a34a" },
  { key: "creditsSpent", label: "Credits spent", color: "#ea580c" },
];

/** Sign-ups, crafts, credits and MRR per day, at a glance. */
export function UsageTab() {
  const [days, setDays] = useState(30);
  const { data, error, mutate } = useUsage(days);
  if (error && !data) return <ErrorState error={error} onRetry={() => void mutate()} />;
  if (!data) return <LoadingBlock rows={6} />;
  const sum = (key: keyof DayStats) => data.days.reduce((total, day) => total + Number(day[key]), 0);
  const mrr = (data.days.at(-1)?.mrrCents ?? 0) / 100;
  return (
    <Flex vertical gap={16} data-testid="admin-usage">
      <Segmented
        aria-label="Period"
        value={days}
        onChange={(value) => setDays(Number(value))}
        options={[
          { value: 7, label: "7 days" },
          { value: 30, label: "30 days" },
          { value: 90, label: "90 days" },
        ]}
      />
      <Row gutter={[16, 16]}>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic title="Users" value={data.totalUsers} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic title={`Sign-ups, ${days} days`} value={sum("signups")} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic title={`Crafts, ${days} days`} value={sum("crafts")} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic title="MRR (USD)" value={mrr} precision={2} />
          </Card>
        </Col>
      </Row>
      <Card size="small" title="Per day">
        <div
          style={{ width: "100%", height: 280 }}
          role="img"
          aria-label={`Sign-ups, crafts and credits per day over ${days} days`}
        >
          <ResponsiveContainer>
            <LineChart data={data.days} margin={{ left: 0, right: 8, top: 8, bottom: 0 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="day" tickFormatter={(day: string) => day.slice(5)} minTickGap={16} />
              <YAxis allowDecimals={false} width={40} />
              <Tooltip />
              <Legend />
              {SERIES.map((series) => (
                <Line
                  key={series.key}
                  type="monotone"
                  dataKey={series.key}
                  name={series.label}
                  stroke={series.color}
                  dot={false}
                />
              ))}
            </LineChart>
          </ResponsiveContainer>
        </div>
      </Card>
      <Card size="small" title="MRR over time (USD)">
        <div
          style={{ width: "100%", height: 220 }}
          role="img"
          aria-label={`Monthly recurring revenue at the end of each day over ${days} days`}
          data-testid="admin-mrr-chart"
        >
          <ResponsiveContainer>
            <LineChart
              data={data.days.map((day) => ({ day: day.day, mrr: day.mrrCents / 100 }))}
              margin={{ left: 0, right: 8, top: 8, bottom: 0 }}
            >
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="day" tickFormatter={(day: string) => day.slice(5)} minTickGap={16} />
              <YAxis width={56} />
              <Tooltip formatter={(value) => `$${Number(value).toFixed(2)}`} />
              <Line type="stepAfter" dataKey="mrr" name="MRR" stroke="#db2777" dot={false} />
            </LineChart>
          </ResponsiveContainer>
        </div>
      </Card>
      <Typography.Text type="secondary">
        MRR is each live subscription's monthly price (a yearly plan's charge / 12), from billing's subscriptions.
      </Typography.Text>
    </Flex>
  );
}
