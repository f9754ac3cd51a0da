/**
 * A socket-shaped stream whose real connection is still being opened (a bridge tunnel): drivers
 * that take a stream factory (pg, mysql2) or an agent's connection (node:http) get it at once,
 * writes wait until the tunnel is open, and 'connect' is emitted then, as a net.Socket would.
 */
import { Duplex } from 'node:stream';

export class DeferredSocket extends Duplex {
  private inner: Duplex | undefined;
  private readonly ready: Promise<Duplex>;
  connecting = true;
  remoteAddress: string | undefined;
  remotePort: number | undefined;

  constructor(open: () => Promise<Duplex>) {
    super({ allowHalfOpen: false });
    this.ready = open();
    this.ready.then(
      (inner) => {
        if (this.destroyed) {
          inner.destroy();
          return;
        }
        this.inner = inner;
        this.connecting = false;
        inner.on('data', (chunk: Buffer) => {
          if (!this.push(chunk)) inner.pause();
        });
        inner.once('end', () => this.push(null));
        inner.once('error', (error) => this.destroy(error));
        inner.once('close', () => {
          if (!this.destroyed) this.destroy();
        });
        this.emit('connect');
        this.emit('ready');
      },
      (error: unknown) => this.destroy(error as Error),
    );
    // An opening that fails after the socket was destroyed must not surface as unhandled.
    this.ready.catch(() => {});
  }

  /** pg calls connect(port, host) on its stream; the tunnel is already on its way. */
  connect(): this {
    return this;
  }

  override _read(): void {
    this.inner?.resume();
  }

  override _write(chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.inner) {
      this.inner.write(chunk, encoding, callback);
      return;
    }
    this.ready.then(
      (inner) => inner.write(chunk, encoding, callback),
      (error: unknown) => callback(error as Error),
    );
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (this.inner) this.inner.end(callback);
    else
      this.ready.then(
        (inner) => inner.end(callback),
        () => callback(),
      );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.inner?.destroy();
    callback(error);
  }

  // net.Socket's tuning calls: the tunnel's own socket is tuned where it is opened.
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  setTimeout(ms: number, callback?: () => void): this {
    if (callback) this.once('timeout', callback);
    if (ms > 0) {
      const timer = setTimeout(() => this.emit('timeout'), ms);
      this.once('connect', () => clearTimeout(timer));
      this.once('close', () => clearTimeout(timer));
    }
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
}
