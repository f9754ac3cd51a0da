/** The bridge's counters, answered at GET /metrics in Prometheus' text format (no labels with data). */
export class BridgeCounters {
  opened = 0;
  open = 0;
  closed = 0;
  timedOut = 0;
  bytesToTarget = 0;
  bytesFromTarget = 0;
  readonly refused = new Map<string, number>();

  refuse(code: string): void {
    this.refused.set(code, (this.refused.get(code) ?? 0) + 1);
  }

  text(): string {
    const lines = [
      '# TYPE dogu_bridge_tunnels_opened_total counter',
      `dogu_bridge_tunnels_opened_total ${this.opened}`,
      '# TYPE dogu_bridge_tunnels_open gauge',
      `dogu_bridge_tunnels_open ${this.open}`,
      '# TYPE dogu_bridge_tunnels_timed_out_total counter',
      `dogu_bridge_tunnels_timed_out_total ${this.timedOut}`,
      '# TYPE dogu_bridge_bytes_to_target_total counter',
      `dogu_bridge_bytes_to_target_total ${this.bytesToTarget}`,
      '# TYPE dogu_bridge_bytes_from_target_total counter',
      `dogu_bridge_bytes_from_target_total ${this.bytesFromTarget}`,
      '# TYPE dogu_bridge_tunnels_refused_total counter',
      ...[...this.refused].map(([code, n]) => `dogu_bridge_tunnels_refused_total{reason="${code}"} ${n}`),
    ];
    return `${lines.join('\n')}\n`;
  }
}
