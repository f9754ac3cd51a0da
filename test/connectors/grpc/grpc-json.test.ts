/** proto3 JSON of requests and replies over the demo's types: field paths, defaults, templates. */
import protobuf from 'protobufjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoProtoPath } from '../../../local/demo-grpc/server.ts';
import { replyJson, requestMessage, requestTemplate } from '../../../shared/connectors/grpc/grpc-json.ts';

let Order: protobuf.Type;

beforeAll(async () => {
  // keepCase: field names as in the .proto, as protoc and reflection describe them.
  Order = (await new protobuf.Root().load(demoProtoPath, { keepCase: true })).lookupType('shop.v1.Order');
});

describe('requests', () => {
  it('accepts proto3 JSON: both field name forms, enum names, Timestamp text, 64-bit strings', () => {
    const message = requestMessage(
      Order,
      '{"id":"a","total_cents":"9007199254740993","status":"SHIPPED","createdAt":"2026-01-02T03:04:05Z","items":[{"sku":"x","quantity":"2"}],"labels":{"k":"v"}}',
    );
    expect(replyJson(Order, Order.decode(Order.encode(message).finish()))).toMatchObject({
      id: 'a',
      totalCents: '9007199254740993',
      status: 'SHIPPED',
      createdAt: '2026-01-02T03:04:05Z',
      items: [{ sku: 'x', quantity: '2' }],
      labels: { k: 'v' },
    });
  });

  it('names the path of an unknown field, also inside lists', () => {
    expect(() => requestMessage(Order, '{"items":[{"sku":"x"},{"skux":"y"}]}')).toThrow(
      "The request does not fit shop.v1.Order at 'items[1].skux': unknown field (Item has: sku, quantity).",
    );
    expect(() => requestMessage(Order, '[]')).toThrow('the request must be a JSON object');
    expect(() => requestMessage(Order, '{"status":"LOST"}')).toThrow('Order.status: unknown enum value');
  });
});

describe('exact numbers (decision 0025, issue 24 item 7)', () => {
  it('refuses a 64-bit literal JSON.parse would round, naming the field and the quoted form', () => {
    expect(() => requestMessage(Order, '{"id":"a","total_cents":9007199254740993}')).toThrow(
      'The request does not fit shop.v1.Order at \'total_cents\': 9007199254740993 is beyond ±9007199254740991 (2^53−1), so it would not be kept exactly; write 64-bit integers as strings ("9007199254740993"), as proto3 JSON allows.',
    );
    expect(() => requestMessage(Order, '{"items":[{"sku":"x","quantity":12345678901234567}]}')).toThrow(
      "at 'items[0].quantity': 12345678901234567",
    );
    // The largest exact integer and the quoted form still go through, exactly.
    const message = requestMessage(
      Order,
      '{"total_cents":9007199254740991,"items":[{"quantity":"9007199254740993"}]}',
    );
    expect(replyJson(Order, Order.decode(Order.encode(message).finish()))).toMatchObject({
      totalCents: '9007199254740991',
      items: [{ quantity: '9007199254740993' }],
    });
  });
});

describe('replies', () => {
  it('lists every top-level field with its proto3 default', () => {
    expect(replyJson(Order, Order.create({}))).toEqual({
      id: '',
      customer: '',
      totalCents: '0',
      status: 'ORDER_STATUS_UNSPECIFIED',
      items: [],
      createdAt: null,
      labels: {},
    });
  });
});

describe('request templates', () => {
  it('is a JSON skeleton of the message, nested messages and lists included', () => {
    expect(JSON.parse(requestTemplate(Order))).toEqual({
      id: '',
      customer: '',
      totalCents: '0',
      status: 'ORDER_STATUS_UNSPECIFIED',
      items: [{ sku: '', quantity: '0' }],
      createdAt: '1970-01-01T00:00:00Z',
      labels: {},
    });
  });

  it('stops at a message that contains itself', () => {
    const root = protobuf.parse(
      'syntax = "proto3"; package t; message Node { string name = 1; repeated Node children = 2; Node parent = 3; }',
    ).root;
    const Node = root.lookupType('t.Node');
    expect(JSON.parse(requestTemplate(Node))).toEqual({ name: '', children: [{}], parent: {} });
  });
});
