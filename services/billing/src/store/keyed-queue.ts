/**
 * Runs the work of one key one at a time in this process, in call order; other keys run freely.
 * Billing queues each user's ledger writes here so concurrent debits of one user do not all race
 * for the same seq and retry (many rounds of reads on FerretDB). Correctness does not rest on it:
 * several replicas still race, and the unique (userId, seq) index decides.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(work, work);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with work queued or running (for tests and metrics). */
  get size(): number {
    return this.tails.size;
  }
}
