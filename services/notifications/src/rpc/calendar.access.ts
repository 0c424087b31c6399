import { rpcAccess } from "@crafter/kit";
import { CalendarService, InboxService, SocialService } from "@crafter/proto/crafter/notifications/v1/calendar_pb";

/** The calendar and the inbox act on the calling user's own entries and notifications. */
export const calendarAccess = {
  ...rpcAccess(CalendarService, {
    listCalendarEntries: ["user"],
    listCalendarPage: ["user"],
    scheduleCraft: ["user"],
    rescheduleEntry: ["user"],
    unscheduleEntry: ["user"],
  }),
  ...rpcAccess(InboxService, {
    listNotifications: ["user"],
    markNotificationRead: ["user"],
    markAllNotificationsRead: ["user"],
  }),
  // Social publishing acts on the calling user's own projects' posts and channels.
  ...rpcAccess(SocialService, {
    listSocialChannels: ["user"],
    chooseSocialChannels: ["user"],
    publishSocialPost: ["user"],
    getSocialPost: ["user"],
    retrySocialChannel: ["user"],
    getTikTokCreatorInfo: ["user"],
  }),
};
