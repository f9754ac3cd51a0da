/**
 * The versions and publications of one kind of document (actions, views) on the table: one item per
 * version under the project, its number zero-padded so the sort key orders them, and one item per
 * published environment. The kinds differ only in their key prefixes, item types and id field.
 */
import type {
  DocumentPublication,
  DocumentVersion,
  VersionedDocuments,
} from '../../domain/versioned-documents.ts';
import type { ActionVersion, Publication } from '../../domain/versions.ts';
import type { ViewPublication, ViewVersion } from '../../domain/views/store.ts';
import type { TableRecords } from './table-records.ts';

/** How one kind of document is laid out on the table. */
export interface DocumentLayout<V extends DocumentVersion, P extends DocumentPublication> {
  versionType: string;
  publicationType: string;
  /** Sort key prefix of a document's versions: `<prefix><documentId>#<version>`. */
  versionPrefix: string;
  /** Sort key prefix of a document's publications: `<prefix><documentId>#<environmentId>`. */
  publicationPrefix: string;
  documentIdOf(record: V | P): string;
}

export const actionLayout: DocumentLayout<ActionVersion, Publication> = {
  versionType: 'actionVersion',
  publicationType: 'publication',
  versionPrefix: 'ACTIONVER#',
  publicationPrefix: 'PUBLICATION#',
  documentIdOf: (record) => record.actionId,
};

export const viewLayout: DocumentLayout<ViewVersion, ViewPublication> = {
  versionType: 'viewVersion',
  publicationType: 'viewPublication',
  versionPrefix: 'VIEWVER#',
  publicationPrefix: 'VIEWPUB#',
  documentIdOf: (record) => record.viewId,
};

export class DynamoDbVersionedDocuments<V extends DocumentVersion, P extends DocumentPublication>
  implements VersionedDocuments<V, P>
{
  constructor(
    private readonly records: TableRecords,
    private readonly layout: DocumentLayout<V, P>,
  ) {}

  private versionKey(projectId: string, documentId: string, version: number) {
    return {
      pk: `PROJECT#${projectId}`,
      sk: `${this.layout.versionPrefix}${documentId}#${String(version).padStart(10, '0')}`,
    };
  }

  private publicationKey(projectId: string, documentId: string, environmentId: string) {
    return {
      pk: `PROJECT#${projectId}`,
      sk: `${this.layout.publicationPrefix}${documentId}#${environmentId}`,
    };
  }

  createVersion(version: V): Promise<void> {
    const key = this.versionKey(version.projectId, this.layout.documentIdOf(version), version.version);
    return this.records.create(key, this.layout.versionType, version);
  }
  getVersion(projectId: string, documentId: string, version: number): Promise<V | undefined> {
    return this.records.get<V>(this.versionKey(projectId, documentId, version));
  }
  async listVersions(projectId: string, documentId: string): Promise<V[]> {
    const versions = await this.records.listProject<V>(
      projectId,
      `${this.layout.versionPrefix}${documentId}#`,
    );
    return versions.sort((a, b) => b.version - a.version);
  }
  getPublication(projectId: string, documentId: string, environmentId: string): Promise<P | undefined> {
    return this.records.get<P>(this.publicationKey(projectId, documentId, environmentId));
  }
  listPublications(projectId: string, documentId: string): Promise<P[]> {
    return this.records.listProject<P>(projectId, `${this.layout.publicationPrefix}${documentId}#`);
  }
  putPublication(publication: P): Promise<void> {
    const key = this.publicationKey(
      publication.projectId,
      this.layout.documentIdOf(publication),
      publication.environmentId,
    );
    return this.records.put(key, this.layout.publicationType, publication);
  }
  deletePublication(projectId: string, documentId: string, environmentId: string): Promise<boolean> {
    return this.records.remove(this.publicationKey(projectId, documentId, environmentId));
  }
  async deleteAll(projectId: string, documentId: string): Promise<void> {
    const [versions, publications] = await Promise.all([
      this.records.queryProject<V>(projectId, `${this.layout.versionPrefix}${documentId}#`),
      this.records.queryProject<P>(projectId, `${this.layout.publicationPrefix}${documentId}#`),
    ]);
    await this.records.writeMany(
      [...versions, ...publications].map(({ sk }) => ({
        DeleteRequest: { Key: { pk: `PROJECT#${projectId}`, sk } },
      })),
    );
  }
}
