/**
 * How every versioned kind of definition is kept (actions and views alike, docs/governance.md): the
 * head is the latest version; each save also stores an immutable version; an environment runs or
 * shows the version published to it, or the latest where nothing was ever published.
 */

/** An immutable version of one document. */
export interface DocumentVersion {
  projectId: string;
  version: number;
  author: { id: string; email: string };
  createdAt: string;
  message: string;
}

/** Which version of one document an environment runs or shows. */
export interface DocumentPublication {
  projectId: string;
  environmentId: string;
  version: number;
  publishedBy: { id: string; email: string };
  publishedAt: string;
}

/** Port: the versions and publications of one kind of document, by document id. */
export interface VersionedDocuments<V extends DocumentVersion, P extends DocumentPublication> {
  /** Versions are immutable: AlreadyExistsError when that version number exists. */
  createVersion(version: V): Promise<void>;
  getVersion(projectId: string, documentId: string, version: number): Promise<V | undefined>;
  /** Newest first. */
  listVersions(projectId: string, documentId: string): Promise<V[]>;
  getPublication(projectId: string, documentId: string, environmentId: string): Promise<P | undefined>;
  listPublications(projectId: string, documentId: string): Promise<P[]>;
  putPublication(publication: P): Promise<void>;
  /** False when there was nothing to delete. */
  deletePublication(projectId: string, documentId: string, environmentId: string): Promise<boolean>;
  /** Every version and publication of the document, so one made again with its id starts afresh. */
  deleteAll(projectId: string, documentId: string): Promise<void>;
}
