/**
 * Group commit for one kind of write. Items submitted in the same turn of the event loop, and items
 * submitted while `maxInFlight` writes are running, go together in one write. A quiet server
 * writes each item one turn after it comes; a busy one writes several per statement and per
 * commit, which saves, for each item past the first, a round trip, a commit and the statement's
 * fixed cost (on PGlite, which plans every statement, most of its cost).
 *
 * A write takes items while their total weight (`weigh`, e.g. the rows an item writes) stays within
 * `maxWeight`, and at least one, so that one statement stays short.
 *
 * `write` gets the items in submission order and returns one result per item, in the same order.
 * If it throws, every item of that write gets the error: callers that must tell their own failure
 * from a neighbour's write the item again on its own.
 */
export class WriteBatcher<T, R> {
  /** Writes made and items written, for a view of how much sharing happens. */
  readonly stats = { writes: 0, items: 0 };
  private running = 0;
  private scheduled = false;
  private readonly waiting: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] = [];

  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly limits: { maxInFlight: number; maxWeight: number; weigh: (item: T) => number },
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.scheduled || this.running >= this.limits.maxInFlight) return;
      // The rest of this turn may bring more: requests read from the same socket reads, or
      // continuations of the same database reply.
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.next();
      });
    });
  }

  private next(): void {
    if (this.waiting.length === 0 || this.running >= this.limits.maxInFlight) return;
    let count = 1;
    let weight = this.limits.weigh(this.waiting[0].item);
    while (count < this.waiting.length && (weight += this.limits.weigh(this.waiting[count].item)) <= this.limits.maxWeight) count++;
    const batch = this.waiting.splice(0, count);
    this.running++;
    this.stats.writes++;
    this.stats.items += batch.length;
    let written: Promise<R[]>;
    try {
      written = this.write(batch.map((w) => w.item));
    } catch (error) {
      written = Promise.reject(error);
    }
    written
      .then(
        (results) => batch.forEach((w, i) => w.resolve(results[i])),
        (error: unknown) => batch.forEach((w) => w.reject(error)),
      )
      .finally(() => {
        this.running--;
        this.next();
      });
  }
}
