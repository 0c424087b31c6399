import { ApartmentOutlined, FormOutlined, RobotOutlined, TeamOutlined, UserAddOutlined } from "@ant-design/icons";
import { lazy } from "react";
import type { RouteEntry } from "../../routing/route-types";
import { CONTACT_PAGES } from "./paths";

/**
 * Contacts, segments, the lead form and lead assistant (app), their settings lists, and the public
 * lead pages. Joined to ROUTES by one spread in app/areas.ts; each page's flag gates the page and
 * its menu entries alike.
 */

const ContactsPage = lazy(() => import("./ContactsPage"));
const AddContactPage = lazy(() => import("./AddContactPage"));
const ContactPage = lazy(() => import("./ContactPage"));
const ImportPage = lazy(() => import("./ImportPage"));
const SegmentsPage = lazy(() => import("./SegmentsPage"));
const SegmentPage = lazy(() => import("./SegmentPage"));
const CustomFieldsPage = lazy(() => import("./settings/CustomFieldsPage"));
const InteractionTypesPage = lazy(() => import("./settings/InteractionTypesPage"));
const ContactTypesPage = lazy(() => import("./settings/ContactTypesPage"));
const LeadFormPage = lazy(() => import("../leads/LeadFormPage"));
const LeadAssistantPage = lazy(() => import("../leads/LeadAssistantPage"));
const PublicFormPage = lazy(() => import("../leads/PublicFormPage"));
const EmbedFormPage = lazy(() => import("../leads/EmbedFormPage"));
const ConfirmPage = lazy(() => import("../leads/ConfirmPage"));
const PreferencesPage = lazy(() => import("../leads/PreferencesPage"));

export const CONTACTS_ROUTES: RouteEntry[] = [
  {
    path: CONTACT_PAGES.contacts,
    title: "Contacts",
    access: "app",
    flag: "customer_view",
    Component: ContactsPage,
    menu: [{ placement: "main", order: 60, label: "Contacts", icon: <TeamOutlined />, testId: "nav-contacts" }],
  },
  {
    path: CONTACT_PAGES.add,
    title: "Add a contact",
    access: "app",
    flag: "customer_view",
    Component: AddContactPage,
    menu: [
      { placement: "create", order: 20, label: "Contact", icon: <UserAddOutlined />, testId: "nav-create-contact" },
    ],
  },
  { path: CONTACT_PAGES.import, title: "Import contacts", access: "app", flag: "customer_view", Component: ImportPage },
  { path: "/app/contacts/:contactId", title: "Contact", access: "app", flag: "customer_view", Component: ContactPage },
  {
    path: CONTACT_PAGES.segments,
    title: "Segments",
    access: "app",
    flag: "segment_view",
    Component: SegmentsPage,
    menu: [
      {
        placement: "main",
        order: 70,
        parent: "nav-contacts",
        label: "Segments",
        icon: <ApartmentOutlined />,
        testId: "nav-segments",
      },
    ],
  },
  { path: "/app/segments/:segmentId", title: "Segment", access: "app", flag: "segment_view", Component: SegmentPage },
  {
    path: CONTACT_PAGES.leadForm,
    title: "Lead form",
    access: "app",
    flag: "leads_form",
    Component: LeadFormPage,
    menu: [
      {
        placement: "main",
        order: 80,
        parent: "nav-contacts",
        label: "Lead form",
        icon: <FormOutlined />,
        testId: "nav-lead-form",
      },
    ],
  },
  {
    path: CONTACT_PAGES.leadAssistant,
    title: "Lead assistant",
    access: "app",
    flag: "leads_assistant",
    Component: LeadAssistantPage,
    menu: [
      {
        placement: "main",
        order: 90,
        parent: "nav-contacts",
        label: "Lead assistant",
        icon: <RobotOutlined />,
        testId: "nav-lead-assistant",
      },
    ],
  },
  {
    path: CONTACT_PAGES.customFields,
    title: "Custom fields",
    access: "app",
    flag: "customer_view",
    Component: CustomFieldsPage,
  },
  {
    path: CONTACT_PAGES.interactionTypes,
    title: "Interaction types",
    access: "app",
    flag: "customer_view",
    Component: InteractionTypesPage,
  },
  {
    path: CONTACT_PAGES.contactTypes,
    title: "Contact types",
    access: "app",
    flag: "customer_view",
    Component: ContactTypesPage,
  },
  // Public lead pages: no session, no flag (the visitor has none); the service checks the form.
  // They are the business's pages: its name and logo, never Crafter's frame.
  { path: "/f/:formId", title: "Sign up", access: "public", frame: "business", Component: PublicFormPage },
  { path: "/f/:formId/embed", title: "Sign up", access: "public", frame: "business", Component: EmbedFormPage },
  {
    path: "/confirm",
    title: "Confirm your subscription",
    access: "public",
    frame: "business",
    Component: ConfirmPage,
  },
  { path: "/preferences/:token", title: "Email preferences", access: "public", Component: PreferencesPage },
];
