/**
 * The events the account service publishes. None yet (AccountUpdated and FlagsChanged of
 * DESIGN.md section 3 come with the features that change accounts and flags); their builders go
 * here as an `<Aggregate>Events` class, as auth's `UserEvents`, and main.ts lists its topic in
 * `publishes` and the store's outbox models in `outbox`.
 */
export {};
