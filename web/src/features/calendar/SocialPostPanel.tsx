import { formatIn } from "@crafter/time";
import { Button, Drawer, Flex, Grid, Typography } from "antd";
import { useNavigate } from "react-router-dom";
import type { CalendarEntry } from "../../api/calendar";
import { canMove } from "./calendar-logic";
import { SocialChannelChips } from "./SocialChannelChips";

/**
 * A social post opened from the calendar: when it goes out and its state on each channel, with
 * links to the published posts, the provider's reason and Retry for failed ones, and the craft.
 * `entry` is the calendar's current copy, so the states refresh with the calendar.
 */
export function SocialPostPanel({
  entry,
  zone,
  onClose,
}: {
  entry: CalendarEntry | null;
  zone: string;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  // The whole width on a phone.
  const wide = Grid.useBreakpoint().sm ?? true;
  return (
    <Drawer
      open={entry !== null}
      onClose={onClose}
      title={entry?.title || "Social post"}
      size={wide ? 440 : "100%"}
      destroyOnHidden
      data-testid="social-post-panel"
    >
      {entry ? (
        <Flex vertical gap={16}>
          <Typography.Text>
            {entry.channels.every((c) => c.state === "scheduled")
              ? "Goes out"
              : entry.channels.some((c) => c.state === "published")
                ? "Went out"
                : "Due"}{" "}
            on <strong>{formatIn(new Date(entry.dateTime), zone)}</strong>
          </Typography.Text>
          <SocialChannelChips entry={entry} />
          {canMove(entry) ? (
            <Typography.Text type="secondary">
              Drag it on the calendar to change its time, until a channel starts publishing it.
            </Typography.Text>
          ) : null}
          {entry.link.startsWith("/") ? (
            <Button style={{ alignSelf: "flex-start" }} onClick={() => navigate(entry.link)}>
              Open the craft
            </Button>
          ) : null}
        </Flex>
      ) : null}
    </Drawer>
  );
}
