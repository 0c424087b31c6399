import { GoogleOutlined, ReloadOutlined, SyncOutlined } from "@ant-design/icons";
import { Alert, Button, Card, Checkbox, Flex, Modal, Rate, Select, Skeleton, Table, Typography } from "antd";
import { useState } from "react";
import { useSWRConfig } from "swr";
import { http } from "../../api/api";
import {
  chooseGoogleLocation,
  connectGoogleBusiness,
  type GoogleBusiness,
  type GoogleBusinessLocation,
  type GoogleListingPreview,
  googleBusinessKeys,
  previewGoogleListing,
  syncGoogleReviews,
  useGoogleBusiness,
  useGoogleLocations,
} from "../../api/business";
import type { BodyOf } from "../../api/contract";
import { useInitial } from "../../api/hooks/app";
import { formatDateTime } from "../../shared/format";
import { notify } from "../../shared/notify";
import { ErrorState } from "../../shared/states";

const REVIEWS_PATH = "/app/business/reviews";
const isReviewKey = (key: unknown) => typeof key === "string" && key.startsWith("/api/business/reviews");

/** Picks the location that is this business among those the connected account manages. */
function LocationChooser({ current, onDone }: { current?: GoogleBusinessLocation; onDone: () => void }) {
  const { data, error, isLoading, mutate } = useGoogleLocations(true);
  const [picked, setPicked] = useState<string | undefined>(current?.name);
  const [saving, setSaving] = useState(false);
  const { mutate: revalidate } = useSWRConfig();
  if (error) return <ErrorState error={error} onRetry={() => void mutate()} />;
  const locations = data ?? [];
  const choose = async () => {
    const location = locations.find((item) => item.name === picked);
    if (!location) return;
    setSaving(true);
    try {
      const outcome = await chooseGoogleLocation(location);
      await Promise.all([revalidate(googleBusinessKeys.state()), revalidate(isReviewKey)]);
      notify.success(
        `${location.title || "The location"} is your business`,
        `${outcome.created} reviews imported from Google.`,
      );
      onDone();
    } catch (failure) {
      notify.error(failure, "Could not choose the location");
    } finally {
      setSaving(false);
    }
  };
  if (!isLoading && locations.length === 0)
    return (
      <Alert
        type="info"
        showIcon
        message="This Google account manages no Business Profile locations."
        description="Connect the Google account that manages your business's listing."
        data-testid="gbp-no-locations"
      />
    );
  return (
    <Flex gap={8} wrap align="center" data-testid="gbp-chooser">
      <Select
        style={{ flex: "1 1 260px", minWidth: 0 }}
        loading={isLoading}
        placeholder="Choose the location that is this business"
        aria-label="Google Business Profile location"
        value={picked}
        onChange={setPicked}
        showSearch
        optionFilterProp="label"
        options={locations.map((location) => ({
          value: location.name,
          label: location.address ? `${location.title} — ${location.address}` : location.title,
        }))}
        data-testid="gbp-location-select"
      />
      <Button type="primary" onClick={choose} loading={saving} disabled={!picked} data-testid="gbp-location-save">
        Use this location
      </Button>
    </Flex>
  );
}

/** The profile fields the listing would change, each kept or left out, then applied to the profile. */
function ListingFillModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [preview, setPreview] = useState<GoogleListingPreview | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [kept, setKept] = useState<string[]>([]);
  const [applying, setApplying] = useState(false);
  const { data: initial } = useInitial();
  const { mutate } = useSWRConfig();
  const profileId = initial?.activeProjectInfo?.profile?.profileId;

  const load = async () => {
    setPreview(null);
    setFailure(null);
    try {
      const answer = await previewGoogleListing();
      setPreview(answer);
      setKept(answer.changes.map((change) => change.key));
    } catch (error) {
      setFailure(error);
    }
  };
  const apply = async () => {
    if (!preview || !profileId) return;
    setApplying(true);
    try {
      const values = Object.fromEntries(
        Object.entries(preview.values).filter(([key]) => kept.includes(key)),
      ) as NonNullable<BodyOf<"/api/profiles/{id}", "patch">["values"]>;
      await http.patch("/api/profiles/{id}", { path: { id: profileId }, body: { values } });
      await mutate(() => true);
      notify.success("Business profile updated from Google");
      onClose();
    } catch (error) {
      notify.error(error, "Could not update the business profile");
    } finally {
      setApplying(false);
    }
  };

  return (
    <Modal
      open={open}
      onCancel={onClose}
      afterOpenChange={(visible) => visible && void load()}
      title="Fill the business profile from Google"
      okText="Apply the chosen changes"
      okButtonProps={{ disabled: !preview || kept.length === 0 || !profileId, loading: applying }}
      onOk={apply}
      width={720}
      destroyOnHidden
    >
      {failure ? (
        <ErrorState error={failure} onRetry={() => void load()} />
      ) : !preview ? (
        <Skeleton active />
      ) : preview.changes.length === 0 ? (
        <Alert type="success" showIcon message="Your business profile already matches the Google listing." />
      ) : (
        <Flex vertical gap={8}>
          <Typography.Text type="secondary">
            Nothing changes until you apply. Untick a field to keep your own value.
          </Typography.Text>
          <Table
            size="small"
            rowKey="key"
            pagination={false}
            scroll={{ x: true }}
            dataSource={preview.changes}
            data-testid="gbp-listing-changes"
            columns={[
              {
                title: "Field",
                key: "field",
                render: (_, change) => (
                  <Checkbox
                    checked={kept.includes(change.key)}
                    onChange={(event) =>
                      setKept((now) =>
                        event.target.checked ? [...now, change.key] : now.filter((key) => key !== change.key),
                      )
                    }
                  >
                    {change.label}
                  </Checkbox>
                ),
              },
              {
                title: "Now",
                dataIndex: "current",
                render: (text: string) =>
                  text ? <span style={{ whiteSpace: "pre-line" }}>{text}</span> : <em>empty</em>,
              },
              {
                title: "From Google",
                dataIndex: "proposed",
                render: (text: string) => <span style={{ whiteSpace: "pre-line" }}>{text}</span>,
              },
            ]}
          />
        </Flex>
      )}
    </Modal>
  );
}

function ChosenLocation({ state, onChange }: { state: GoogleBusiness; onChange: () => void }) {
  const [syncing, setSyncing] = useState(false);
  const [filling, setFilling] = useState(false);
  const { mutate } = useSWRConfig();
  const location = state.location!;
  const sync = async () => {
    setSyncing(true);
    try {
      const outcome = await syncGoogleReviews();
      await Promise.all([mutate(googleBusinessKeys.state()), mutate(isReviewKey)]);
      notify.success(
        "Reviews synced",
        outcome.created + outcome.updated === 0
          ? "Nothing new on Google."
          : `${outcome.created} new, ${outcome.updated} changed.`,
      );
    } catch (failure) {
      await mutate(googleBusinessKeys.state());
      notify.error(failure, "Could not sync the reviews");
    } finally {
      setSyncing(false);
    }
  };
  return (
    <Flex vertical gap={8}>
      <Flex gap={16} wrap align="center" justify="space-between">
        <div style={{ minWidth: 0 }}>
          <Typography.Text strong data-testid="gbp-location-title">
            {location.title || location.name}
          </Typography.Text>
          {location.address && (
            <Typography.Text type="secondary" style={{ display: "block" }}>
              {location.address}
            </Typography.Text>
          )}
          <Flex gap={8} align="center" wrap data-testid="gbp-summary">
            <Rate disabled allowHalf value={Math.round(state.averageRating * 2) / 2} style={{ fontSize: 14 }} />
            <span>
              {state.averageRating.toFixed(1)} from {state.totalReviewCount} reviews on Google
            </span>
          </Flex>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {state.lastSyncedAt ? `Last synced ${formatDateTime(state.lastSyncedAt)}` : "Not synced yet"}
          </Typography.Text>
        </div>
        <Flex gap={8} wrap>
          <Button icon={<SyncOutlined />} onClick={sync} loading={syncing} data-testid="gbp-sync">
            Sync now
          </Button>
          <Button onClick={() => setFilling(true)} data-testid="gbp-fill">
            Fill profile from listing
          </Button>
          <Button type="link" onClick={onChange} data-testid="gbp-change-location">
            Change location
          </Button>
        </Flex>
      </Flex>
      {state.lastError && (
        <Alert type="warning" showIcon message="The last sync failed" description={state.lastError} />
      )}
      <ListingFillModal open={filling} onClose={() => setFilling(false)} />
    </Flex>
  );
}

/**
 * The reviews page's Google Business Profile card (flags google_business_integration and
 * google_reviews): connect, choose the location that is this business, see its average and count,
 * Sync now, and fill the business profile from the listing after a preview.
 */
export function GoogleBusinessPanel({ onChosen }: { onChosen?: () => void }) {
  const { data, error, isLoading, mutate } = useGoogleBusiness(true);
  const [changing, setChanging] = useState(false);
  const [connecting, setConnecting] = useState(false);
  const connect = async () => {
    setConnecting(true);
    try {
      await connectGoogleBusiness(REVIEWS_PATH);
    } catch (failure) {
      notify.error(failure, "Could not connect Google Business Profile");
      setConnecting(false);
    }
  };
  let body: React.ReactNode;
  if (error) body = <ErrorState error={error} onRetry={() => void mutate()} />;
  else if (isLoading || !data) body = <Skeleton active paragraph={{ rows: 1 }} />;
  else if (data.connection !== "connected")
    body = (
      <Flex gap={12} wrap align="center" justify="space-between">
        <Typography.Text>
          {data.connection === "needs_reconnecting"
            ? "Google Business Profile needs reconnecting: Google no longer accepts Crafter's access."
            : "Connect your Google Business Profile to bring in your reviews and reply to them from here."}
        </Typography.Text>
        <Button
          type="primary"
          icon={data.connection === "needs_reconnecting" ? <ReloadOutlined /> : <GoogleOutlined />}
          onClick={connect}
          loading={connecting}
          data-testid="gbp-connect"
        >
          {data.connection === "needs_reconnecting" ? "Reconnect Google Business" : "Connect Google Business"}
        </Button>
      </Flex>
    );
  else if (!data.location || changing)
    body = (
      <LocationChooser
        current={data.location}
        onDone={() => {
          setChanging(false);
          onChosen?.();
        }}
      />
    );
  else body = <ChosenLocation state={data} onChange={() => setChanging(true)} />;
  return (
    <Card size="small" title="Google Business Profile" data-testid="gbp-panel" data-state={data?.connection}>
      {body}
    </Card>
  );
}
