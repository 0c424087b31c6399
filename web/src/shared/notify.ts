import { notification } from "antd";
import type { ReactNode } from "react";
import { errorMessage } from "../api/errors";

/**
 * Toasts from anywhere (SWR's global onError, event handlers). The provider registers the
 * App-scoped instance (themed, `maxCount: 3`, `duration: 5`); before that the static API is used
 * with the same configuration.
 */
type NotificationApi = Pick<typeof notification, "success" | "error" | "info" | "warning">;

export const NOTIFICATION_CONFIG = { maxCount: 3, duration: 5, placement: "topRight" } as const;

let current: NotificationApi | null = null;

export function registerNotificationApi(api: NotificationApi | null): void {
  current = api;
}

function instance(): NotificationApi {
  if (current) return current;
  notification.config(NOTIFICATION_CONFIG);
  return notification;
}

export const notify = {
  /** An error toast with the message rule of spec section 8. */
  error(error: unknown, title = "Something went wrong") {
    instance().error({ title, description: errorMessage(error), duration: NOTIFICATION_CONFIG.duration });
  },
  /** An error toast whose message is already decided (e.g. a catalogue message). */
  errorMessage(title: string, message: string) {
    instance().error({ title, description: message, duration: NOTIFICATION_CONFIG.duration });
  },
  success(title: string, description?: string) {
    instance().success({ title, description, duration: NOTIFICATION_CONFIG.duration });
  },
  info(title: string, description?: ReactNode) {
    instance().info({ title, description, duration: NOTIFICATION_CONFIG.duration });
  },
  warning(title: string, description?: ReactNode) {
    instance().warning({ title, description, duration: NOTIFICATION_CONFIG.duration });
  },
};
