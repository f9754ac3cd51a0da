/**
 * The demo gRPC service (shop.v1.OrderService) with server reflection: `npm start` serves it on
 * 127.0.0.1 so a newcomer can run a gRPC action; tests start it with their own options.
 */
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';

export const demoProtoPath = fileURLToPath(new URL('./shop.proto', import.meta.url));

export interface DemoGrpcOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Which reflection services to offer (default both). */
  reflection?: 'v1-and-v1alpha' | 'v1alpha' | 'none';
  tls?: { cert: string; key: string };
  /** Each call's metadata, for tests that check what was sent. */
  onMetadata?: (method: string, metadata: Record<string, string>) => void;
  /** GetOrder waits this long before answering (deadline tests). */
  delayMs?: number;
}

export interface DemoGrpcServer {
  address: string;
  port: number;
  close(): Promise<void>;
}

interface OrderRecord {
  id: string;
  customer: string;
  total_cents: string;
  status: string;
  items: { sku: string; quantity: string }[];
  created_at: { seconds: string; nanos: number };
  labels: Record<string, string>;
}

const orders: OrderRecord[] = [
  order('ord-1001', 'ann@example.com', '12800', 'OPEN', [['tea-sencha', '2']]),
  order('ord-1002', 'ben@example.com', '9007199254740993', 'SHIPPED', [
    ['kettle', '1'],
    ['cup', '4'],
  ]),
  order('ord-1003', 'ann@example.com', '3400', 'SHIPPED', [['matcha', '1']]),
];

function order(
  id: string,
  customer: string,
  cents: string,
  status: string,
  items: [string, string][],
): OrderRecord {
  return {
    id,
    customer,
    total_cents: cents,
    status,
    items: items.map(([sku, quantity]) => ({ sku, quantity })),
    created_at: { seconds: '1767225600', nanos: 0 },
    labels: { channel: 'web' },
  };
}

export async function startDemoGrpcServer(options: DemoGrpcOptions = {}): Promise<DemoGrpcServer> {
  const definition = protoLoader.loadSync(demoProtoPath, { keepCase: true, longs: String, enums: String });
  const shop = grpc.loadPackageDefinition(definition).shop as {
    v1: { OrderService: grpc.ServiceClientConstructor };
  };
  const server = new grpc.Server();
  const observe = (method: string, call: { metadata: grpc.Metadata }) => {
    const seen: Record<string, string> = {};
    for (const [key, value] of Object.entries(call.metadata.getMap())) seen[key] = String(value);
    options.onMetadata?.(method, seen);
  };
  server.addService(shop.v1.OrderService.service, {
    GetOrder(
      call: grpc.ServerUnaryCall<{ id: string; include_items: boolean }, unknown>,
      done: grpc.sendUnaryData<unknown>,
    ) {
      observe('GetOrder', call);
      const answer = () => {
        const found = orders.find((o) => o.id === call.request.id);
        if (!found)
          done({ code: grpc.status.NOT_FOUND, details: `order '${call.request.id}' does not exist` });
        else done(null, call.request.include_items ? found : { ...found, items: [] });
      };
      if (options.delayMs) setTimeout(answer, options.delayMs);
      else answer();
    },
    ListOrders(
      call: grpc.ServerUnaryCall<{ customer: string; page_size: number }, unknown>,
      done: grpc.sendUnaryData<unknown>,
    ) {
      observe('ListOrders', call);
      const matching = orders.filter((o) => !call.request.customer || o.customer === call.request.customer);
      done(null, { orders: matching.slice(0, call.request.page_size || matching.length) });
    },
    WatchOrders(call: grpc.ServerWritableStream<unknown, unknown>) {
      observe('WatchOrders', call);
      for (const o of orders) call.write(o);
      call.end();
    },
  });
  const reflection = options.reflection ?? 'v1-and-v1alpha';
  if (reflection !== 'none') {
    const service = new ReflectionService(definition);
    service.addToServer({
      addService: (definition, implementation) => {
        const path = Object.values(definition)[0]?.path ?? '';
        if (reflection === 'v1alpha' && !path.includes('v1alpha')) return;
        server.addService(definition, implementation);
      },
    });
  }
  const credentials = options.tls
    ? grpc.ServerCredentials.createSsl(
        null,
        [{ cert_chain: Buffer.from(options.tls.cert), private_key: Buffer.from(options.tls.key) }],
        false,
      )
    : grpc.ServerCredentials.createInsecure();
  const host = options.host ?? '127.0.0.1';
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:${options.port ?? 0}`, credentials, (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return {
    address: `${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.forceShutdown(), 1000);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      }),
  };
}
