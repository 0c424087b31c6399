/**
 * The events the notifications service publishes. None yet (NotificationCreated and the email
 * events of DESIGN.md section 3 come with in-app notifications and campaigns); their builders go
 * here as an `<Aggregate>Events` class, as auth's `UserEvents`, and main.ts lists its topic in
 * `publishes` and the store's outbox models in `outbox`.
 */
export {};
