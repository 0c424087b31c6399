import { CalendarOutlined } from "@ant-design/icons";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Form, Input, Modal } from "antd";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { z } from "zod";
import { useFeature } from "../../api/hooks/app";
import { notify } from "../../shared/notify";
import { useCalendarWrites } from "./api";
import { isoToLocalInput, localInputToIso } from "./calendar-logic";

const schema = z.object({
  when: z.string().refine((v) => localInputToIso(v) !== null, "Choose a date and time"),
});

/** "Schedule" on a craft's page: places the craft on the content calendar at a chosen time. */
export function ScheduleButton({ craftId }: { craftId: string }) {
  const enabled = useFeature("content_calendar");
  const [open, setOpen] = useState(false);
  const writes = useCalendarWrites();
  const tomorrow = new Date(Date.now() + 86_400_000);
  tomorrow.setHours(9, 0, 0, 0);
  const { control, handleSubmit, formState, reset } = useForm<z.infer<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { when: isoToLocalInput(tomorrow) },
  });
  if (!enabled || !craftId) return null;

  const submit = handleSubmit(async ({ when }) => {
    try {
      const entry = await writes.schedule(craftId, localInputToIso(when)!);
      setOpen(false);
      reset({ when });
      notify.success("Scheduled", `On ${new Date(entry.dateTime).toLocaleString()}: see it on the content calendar.`);
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
