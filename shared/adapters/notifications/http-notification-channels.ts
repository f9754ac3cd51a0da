/**
 * How notifications leave the service. Webhooks and Slack go through the HTTP connector's client
 * (shared/adapters/http/node-http-client.ts), so they get its SSRF rule on the address actually
 * connected to: cloud metadata and link-local addresses are always refused; loopback and private
 * ones unless the project allows them. E-mail goes to the runtime's mailer (SMTP or SES); an SMTP host
 * follows the same rule (target-address.ts), at save and on the address the mailer connects to.
 */
import { DoguError } from '../../domain/errors.ts';
import type { MailMessage, NotificationChannels, WebhookPost } from '../../domain/notifications/ports.ts';
import { NodeHttpClient, type NodeHttpClientOptions } from '../http/node-http-client.ts';
import { checkedTargetAddresses } from './target-address.ts';

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** A receiver's answer is read only to see that it came: a small cap is plenty. */
const maxAnswerBytes = 64 * 1024;

export class HttpNotificationChannels implements NotificationChannels {
  private readonly open: NodeHttpClient;
  private readonly guarded: NodeHttpClient;

  constructor(
    private readonly mailer: Mailer,
    options: Omit<NodeHttpClientOptions, 'denyPrivateNetworks'> = {},
  ) {
    const common = { ...options, maxRedirects: 0, userAgent: 'Dogu-Notifications' };
    this.open = new NodeHttpClient({ ...common, denyPrivateNetworks: false });
    this.guarded = new NodeHttpClient({ ...common, denyPrivateNetworks: true });
  }

  async post(request: WebhookPost): Promise<{ status: number }> {
    const client = request.allowPrivateNetworks ? this.open : this.guarded;
    try {
      const answer = await client.send(
        { method: 'POST', url: request.url, headers: request.headers, body: request.body },
        { signal: new AbortController().signal, timeoutMs: request.timeoutMs, maxBodyBytes: maxAnswerBytes },
      );
      return { status: answer.status };
    } catch (error) {
      if (!(error instanceof DoguError)) throw error;
      // The client speaks of "actions" and an env variable; a target's admin needs the project setting.
      throw new DoguError(
        error.code,
        error.message
          .replace('The HTTP request to', 'The notification to')
          .replace(
            /private networks are denied here \(DOGU_HTTP_DENY_PRIVATE_NETWORKS\)/,
            'the project does not allow private network targets',
          )
          .replace('which actions may never reach', 'which notifications may never reach'),
      );
    }
  }

  sendMail(message: MailMessage): Promise<void> {
    return this.mailer.send(message);
  }

  async checkUrl(url: string, allowPrivateNetworks: boolean): Promise<void> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new DoguError('bad_request', 'The target URL is not a valid URL.');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new DoguError('bad_request', `The target URL must be http or https, not ${parsed.protocol}.`);
    }
    await checkedTargetAddresses(parsed.hostname, allowPrivateNetworks, parsed.host);
  }

  async checkSmtpHost(host: string, allowPrivateNetworks: boolean): Promise<void> {
    await checkedTargetAddresses(host, allowPrivateNetworks, host);
  }

  close() {
    this.open.close();
    this.guarded.close();
  }
}
