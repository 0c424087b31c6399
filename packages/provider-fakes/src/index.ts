// One file per provider; each server is started in-process by a test on the port the test stack
// points that provider's `<PREFIX>_BASE_URL` at (scripts/stack.mjs).

export * from "./dns";
export * from "./google-business";
export * from "./google-oidc";
export * from "./meta-graph";
export * from "./oauth-server";
export * from "./sendgrid";
export * from "./shopify";
export * from "./tiktok";
