// Pure validation rules of spec section 5, shared by the services and the web dashboard.

export * from "./api-keys";
export * from "./email";
export * from "./google-business";
export * from "./hostname";
export * from "./lead-assistant";
export * from "./page-slug";
export * from "./profiles";
export * from "./settings";
export * from "./shopify";
export * from "./url";
export * from "./webhook-events";
