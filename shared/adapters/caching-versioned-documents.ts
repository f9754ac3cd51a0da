/**
 * Versions and publications of one kind of document with the reads of the execution path cached
 * (which version an environment runs, and that version): versions never change once written, and
 * publication writes made here evict what they change.
 */
import type {
  DocumentPublication,
  DocumentVersion,
  VersionedDocuments,
} from '../domain/versioned-documents.ts';
import type { TimedCache } from './timed-cache.ts';

export class CachingVersionedDocuments<V extends DocumentVersion, P extends DocumentPublication>
  implements VersionedDocuments<V, P>
{
  constructor(
    private readonly inner: VersionedDocuments<V, P>,
    private readonly cache: TimedCache,
    /** Names the kind in cache keys (`action`, `view`). */
    private readonly kind: string,
    private readonly documentIdOf: (record: V | P) => string,
  ) {}

  private versionKey(projectId: string, documentId: string, version: number) {
    return `${this.kind}-version/${projectId}/${documentId}/${version}`;
  }
  private publicationKey(projectId: string, documentId: string, environmentId: string) {
    return `${this.kind}-pub/${projectId}/${documentId}/${environmentId}`;
  }

  createVersion(version: V): Promise<void> {
    const key = this.versionKey(version.projectId, this.documentIdOf(version), version.version);
    return this.cache.evictAfter(key, this.inner.createVersion(version));
  }
  getVersion(projectId: string, documentId: string, version: number): Promise<V | undefined> {
    return this.cache.cached(this.versionKey(projectId, documentId, version), () =>
      this.inner.getVersion(projectId, documentId, version),
    );
  }
  listVersions(projectId: string, documentId: string): Promise<V[]> {
    return this.inner.listVersions(projectId, documentId);
  }
  getPublication(projectId: string, documentId: string, environmentId: string): Promise<P | undefined> {
    return this.cache.cached(this.publicationKey(projectId, documentId, environmentId), () =>
      this.inner.getPublication(projectId, documentId, environmentId),
    );
  }
  listPublications(projectId: string, documentId: string): Promise<P[]> {
    return this.inner.listPublications(projectId, documentId);
  }
  putPublication(publication: P): Promise<void> {
    const key = this.publicationKey(
      publication.projectId,
      this.documentIdOf(publication),
      publication.environmentId,
    );
    return this.cache.evictAfter(key, this.inner.putPublication(publication));
  }
  deletePublication(projectId: string, documentId: string, environmentId: string): Promise<boolean> {
    return this.cache.evictAfter(
      this.publicationKey(projectId, documentId, environmentId),
      this.inner.deletePublication(projectId, documentId, environmentId),
    );
  }
  async deleteAll(projectId: string, documentId: string): Promise<void> {
    try {
      await this.inner.deleteAll(projectId, documentId);
    } finally {
      this.cache.evictPrefix(`${this.kind}-version/${projectId}/${documentId}/`);
      this.cache.evictPrefix(`${this.kind}-pub/${projectId}/${documentId}/`);
    }
  }
}
