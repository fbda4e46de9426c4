/**
 * The protocol between the harness and a server child: the child sends its URL (and fixtures) once
 * it listens, answers CPU-usage queries, and stops on SIGTERM.
 */
export interface ReadyMessage {
  url: string;
  owner?: { email: string; apiKey: string; userId: number };
  /** What the scenario's seed function returned (see `startParley`'s `seed`). */
  fixtures?: unknown;
}

export function announceReady(message: ReadyMessage, stop: () => Promise<void>): void {
  process.on('message', (request: { type?: string }) => {
    if (request?.type === 'cpu') {
      const usage = process.cpuUsage();
      process.send!({ type: 'cpu', micros: usage.user + usage.system });
    }
  });
  process.once('SIGTERM', () => {
    stop().then(
      () => process.exit(0),
      (error) => {
        console.error('server child failed to stop', error);
        process.exit(1);
      },
    );
  });
  process.send!(message);
}
