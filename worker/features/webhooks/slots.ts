/**
 * The connections of one consumer run, shared by its lanes (run.ts, lane.ts): workerd allows six
 * open connections per invocation, so at most `total` calls are in flight at once, and each lane
 * at most its share of them (total / the lanes still running, at least one), so a slow receiver's
 * lane can never hold every connection while a healthy one's waits. A lane that finishes gives its
 * share to the others. Waiting calls are served in the order they asked, skipping a lane at its cap.
 */
export class Slots {
  private inFlight = 0;
  private readonly perLane = new Map<number, number>();
  private readonly lanes = new Set<number>();
  private waiting: { lane: number; grant: () => void }[] = [];
  /** The most calls in flight at once, overall and per lane (for the run's report and tests). */
  most = 0;
  readonly mostPerLane = new Map<number, number>();

  constructor(readonly total: number) {}

  /** A lane's cap while `lanes` lanes run: its share of the connections, at least one. */
  cap(): number {
    return Math.max(1, Math.floor(this.total / Math.max(1, this.lanes.size)));
  }

  /** A lane starts (its calls count against the run's connections from now). */
  open(lane: number): void {
    this.lanes.add(lane);
  }

  /** A lane ended: its share goes to the others. */
  close(lane: number): void {
    this.lanes.delete(lane);
    this.pump();
  }

  /** Waits for a connection for `lane`; call the returned function when the call has ended. */
  acquire(lane: number): Promise<() => void> {
    return new Promise((resolve) => {
      this.waiting.push({ lane, grant: () => resolve(this.releaser(lane)) });
      this.pump();
    });
  }

  private releaser(lane: number): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.inFlight -= 1;
      this.perLane.set(lane, (this.perLane.get(lane) ?? 1) - 1);
      this.pump();
    };
  }

  private pump(): void {
    const cap = this.cap();
    const still: typeof this.waiting = [];
    for (const waiter of this.waiting) {
      const ofLane = this.perLane.get(waiter.lane) ?? 0;
      if (this.inFlight >= this.total || ofLane >= cap) {
        still.push(waiter);
        continue;
      }
      this.inFlight += 1;
      this.perLane.set(waiter.lane, ofLane + 1);
      this.most = Math.max(this.most, this.inFlight);
      this.mostPerLane.set(waiter.lane, Math.max(this.mostPerLane.get(waiter.lane) ?? 0, ofLane + 1));
      waiter.grant();
    }
    this.waiting = still;
  }
}
