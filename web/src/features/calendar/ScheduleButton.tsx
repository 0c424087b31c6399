import { CalendarOutlined } from "@ant-design/icons";
import { formatIn, nextTimeOfDay } from "@crafter/time";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Form, Input, Modal } from "antd";
import { useMemo, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { z } from "zod";
import { useCalendarWrites } from "../../api/calendar";
import { useFeature } from "../../api/hooks/app";
import { notify } from "../../shared/notify";
import { useBusinessTimeZone } from "../../shared/time-zone";
import { isoToLocalInput, localInputToIso } from "./calendar-logic";

const schemaIn = (zone: string) =>
  z.object({
    when: z.string().refine((v) => localInputToIso(v, zone) !== null, "Choose a date and time"),
  });

/**
 * "Schedule" on a craft's page: places the craft on the content calendar at a chosen time, on the
 * business's wall clock (its time zone, not the browser's).
 */
export function ScheduleButton({ craftId }: { craftId: string }) {
  const enabled = useFeature("content_calendar");
  const [open, setOpen] = useState(false);
  const writes = useCalendarWrites();
  const { zone } = useBusinessTimeZone();
  const schema = useMemo(() => schemaIn(zone), [zone]);
  // Tomorrow 09:00 (or later today's), business time.
  const nine = nextTimeOfDay(new Date(Date.now() + 12 * 3_600_000), "09:00", zone);
  const { control, handleSubmit, formState, reset } = useForm<z.infer<ReturnType<typeof schemaIn>>>({
    resolver: zodResolver(schema),
    defaultValues: { when: isoToLocalInput(nine, zone) },
  });
  if (!enabled || !craftId) return null;

  const submit = handleSubmit(async ({ when }) => {
    try {
      const entry = await writes.schedule(craftId, localInputToIso(when, zone)!);
      setOpen(false);
      reset({ when });
      notify.success("Scheduled", `On ${formatIn(new Date(entry.dateTime), zone)}: see it on the content calendar.`);
    } catch (err) {
      notify.error(err, "Could not schedule it");
    }
  });

  return (
    <>
      <Button icon={<CalendarOutlined />} onClick={() => setOpen(true)} data-testid="schedule-craft">
        Schedule
      </Button>
      <Modal
        open={open}
        title="Schedule on the content calendar"
        okText="Schedule"
        onOk={() => void submit()}
        confirmLoading={formState.isSubmitting}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <form onSubmit={submit} data-testid="schedule-form">
          <Form.Item
            label="Date and time"
            extra={`Business time: ${zone.replace(/_/g, " ")}`}
            validateStatus={formState.errors.when ? "error" : undefined}
            help={formState.errors.when?.message}
            layout="vertical"
          >
            <Controller
              name="when"
              control={control}
              render={({ field }) => (
                <Input {...field} type="datetime-local" aria-label="Date and time" data-testid="schedule-when" />
              )}
            />
          </Form.Item>
        </form>
      </Modal>
    </>
  );
}
