/**
 * Holds a socket's deliveries while its credentials are checked again. Bus listeners run in the
 * order they subscribed and SocketSessions subscribes before any subscription stream, so the gate
 * is held before any event published after the change reaches a stream of the socket.
 */
export class DeliveryGate {
  private holds = 0;
  private readonly listeners = new Set<() => void>();

  get held(): boolean {
    return this.holds > 0;
  }

  hold(): void {
    this.holds++;
  }

  release(): void {
    if (this.holds === 0 || --this.holds > 0) return;
    for (const listener of [...this.listeners]) listener();
  }

  onRelease(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
