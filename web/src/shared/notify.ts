import type { notification } from "antd";
import type { ReactNode } from "react";
import { errorMessage } from "../api/errors";

/**
 * Toasts from anywhere (SWR's global onError, event handlers). antd's App (app/ant-app.tsx)
 * registers its instance (themed, `maxCount: 3`, `duration: 5`); before that antd's static API is
 * used with the same configuration, loaded on that first toast rather than with every page.
 */
type NotificationApi = Pick<typeof notification, "success" | "error" | "info" | "warning">;

export const NOTIFICATION_CONFIG = { maxCount: 3, duration: 5, placement: "topRight" } as const;

let current: NotificationApi | null = null;

export function registerNotificationApi(api: NotificationApi | null): void {
  current = api;
}

let fallback: Promise<NotificationApi> | undefined;

/** Calls `show` on the registered instance, or on the static API once it has loaded. */
function withInstance(show: (api: NotificationApi) => void): void {
  if (current) {
    show(current);
    return;
  }
  fallback ??= import("antd/es/notification").then(({ default: staticApi }) => {
    staticApi.config(NOTIFICATION_CONFIG);
    return staticApi;
  });
  void fallback.then((api) => show(current ?? api));
}

export const notify = {
  /** An error toast with the message rule of spec section 8. */
  error(error: unknown, title = "Something went wrong") {
    withInstance((api) =>
      api.error({ title, description: errorMessage(error), duration: NOTIFICATION_CONFIG.duration }),
    );
  },
  /** An error toast whose message is already decided (e.g. a catalogue message). */
  errorMessage(title: string, message: string) {
    withInstance((api) => api.error({ title, description: message, duration: NOTIFICATION_CONFIG.duration }));
  },
  success(title: string, description?: string) {
    withInstance((api) => api.success({ title, description, duration: NOTIFICATION_CONFIG.duration }));
  },
  info(title: string, description?: ReactNode) {
    withInstance((api) => api.info({ title, description, duration: NOTIFICATION_CONFIG.duration }));
  },
  warning(title: string, description?: ReactNode) {
    withInstance((api) => api.warning({ title, description, duration: NOTIFICATION_CONFIG.duration }));
  },
};
