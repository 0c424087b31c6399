import { MailOutlined, SendOutlined } from "@ant-design/icons";
import { lazy } from "react";
import type { RouteEntry } from "../../routing/route-types";
import { EMAIL_PAGES } from "./paths";

const gallery = (name: "EmailGalleryPage" | "SocialGalleryPage") =>
  lazy(() => import("./TemplateGallery").then((m) => ({ default: m[name] })));
const designer = (name: "EmailDesignerPage" | "SocialDesignerPage") =>
  lazy(() => import("./designer/DesignerPage").then((m) => ({ default: m[name] })));
const campaigns = (name: "CampaignsPage" | "CampaignComposerPage" | "CampaignDetailPage") =>
  lazy(() => import("./campaigns/CampaignPages").then((m) => ({ default: m[name] })));

/**
 * The email area: the template galleries and the designer (spec §2 create/email and
 * create/social-media-post), and the email campaigns under Campaigns.
 */
export const EMAIL_ROUTES: RouteEntry[] = [
  {
    path: EMAIL_PAGES.emailGallery,
    title: "Choose an email template",
    access: "app",
    Component: gallery("EmailGalleryPage"),
    menu: [
      {
        placement: "main",
        order: 150,
        parent: "nav-campaigns",
        label: "Email templates",
        icon: <MailOutlined />,
        testId: "nav-email-templates",
      },
    ],
  },
  {
    path: EMAIL_PAGES.socialGallery,
    title: "Choose a social media post template",
    access: "app",
    Component: gallery("SocialGalleryPage"),
  },
  { path: EMAIL_PAGES.emailDesigner, title: "Email designer", access: "app", Component: designer("EmailDesignerPage") },
  {
    path: EMAIL_PAGES.socialDesigner,
    title: "Social post designer",
    access: "app",
    Component: designer("SocialDesignerPage"),
  },
  {
    path: EMAIL_PAGES.campaigns,
    title: "Email campaigns",
    access: "app",
    Component: campaigns("CampaignsPage"),
    menu: [
      {
        placement: "main",
        order: 160,
        parent: "nav-campaigns",
        label: "Email campaigns",
        icon: <SendOutlined />,
        testId: "nav-email-campaigns",
      },
    ],
  },
  {
    path: EMAIL_PAGES.newCampaign,
    title: "New email campaign",
    access: "app",
    Component: campaigns("CampaignComposerPage"),
  },
  {
    path: EMAIL_PAGES.editCampaign,
    title: "Edit email campaign",
    access: "app",
    Component: campaigns("CampaignComposerPage"),
  },
  { path: EMAIL_PAGES.campaign, title: "Email campaign", access: "app", Component: campaigns("CampaignDetailPage") },
];
