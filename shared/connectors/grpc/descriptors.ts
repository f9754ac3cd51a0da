/**
 * Where a data source's service descriptions come from: server reflection (kept per data source
 * environment for a minute, so a run does not ask the server every time) or a protoset version
 * read through DataSourceFiles (kept per version: a version never changes).
 */
import type * as grpc from '@grpc/grpc-js';
import type protobuf from 'protobufjs';
import { DoguError } from '../../domain/errors.ts';
import type { DataSourceFiles } from '../../domain/ports.ts';
import type { GrpcConnection } from './definition.ts';
import { rootFromFiles, rootFromProtoset, type ServiceDescription, servicesOf } from './protoset.ts';
import { reflect } from './reflection.ts';

export interface Described {
  root: protobuf.Root;
  services: ServiceDescription[];
}

export interface DescribeInput {
  key: string;
  connection: GrpcConnection;
  files?: DataSourceFiles;
  client: grpc.Client;
  deadline: Date;
  signal: AbortSignal;
  metadata: grpc.Metadata;
}

const reflectionTtlMs = 60_000;
/** Descriptions can be several MB each (large protosets): keep a bounded number per process. */
const maxKept = 50;

export class Descriptors {
  private readonly reflected = new Map<string, { described: Described; expiresAt: number }>();
  private readonly protosets = new Map<string, Described>();

  async describe(input: DescribeInput): Promise<Described> {
    return input.connection.serviceSource === 'protoset'
      ? this.fromProtoset(input)
      : this.fromReflection(input);
  }

  forget(key: string): void {
    for (const k of this.reflected.keys()) if (k.startsWith(`${key}|`)) this.reflected.delete(k);
  }

  private async fromReflection(input: DescribeInput): Promise<Described> {
    const cacheKey = `${input.key}|${input.connection.address}|${input.connection.tls}`;
    const kept = this.reflected.get(cacheKey);
    if (kept && kept.expiresAt > Date.now()) return kept.described;
    const { files } = await reflect(input.client, input);
    const root = rootFromFiles(files);
    const described = { root, services: servicesOf(root) };
    if (this.reflected.size >= maxKept) this.reflected.clear();
    this.reflected.set(cacheKey, { described, expiresAt: Date.now() + reflectionTtlMs });
    return described;
  }

  private async fromProtoset(input: DescribeInput): Promise<Described> {
    const pinned = input.connection.protosetVersionId;
    const pinnedKey = pinned ? `${input.key}|${pinned}` : undefined;
    if (pinnedKey && this.protosets.has(pinnedKey)) return this.protosets.get(pinnedKey)!;
    if (!input.files) {
      throw new DoguError(
        'data_source_error',
        'This data source takes its service information from a protoset, but no protoset storage is available here.',
      );
    }
    const file = await input.files.read(pinned);
    if (!file) {
      throw new DoguError(
        'data_source_error',
        pinned
          ? `The protoset version '${pinned}' of this data source and environment does not exist.`
          : 'No protoset has been uploaded for this data source and environment: upload one (POST /v1/upload_protoset) or use server reflection.',
      );
    }
    const versionKey = `${input.key}|${file.versionId}`;
    const kept = this.protosets.get(versionKey);
    if (kept) return kept;
    const root = rootFromProtoset(file.bytes);
    const described = { root, services: servicesOf(root) };
    if (this.protosets.size >= maxKept) this.protosets.clear();
    this.protosets.set(versionKey, described);
    return described;
  }
}
