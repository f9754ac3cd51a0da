/**
 * The rules of versioned documents, the same for actions and views: the head is the latest version
 * (its record may be missing for data saved before versions existed, or after a crash between the
 * two writes), older versions are read from their records, and an environment is pointed at a
 * version or back at the latest. Authorization stays with each kind's use cases.
 */
import { DoguError } from './errors.ts';
import { AlreadyExistsError } from './ports.ts';
import type { DocumentPublication, DocumentVersion, VersionedDocuments } from './versioned-documents.ts';

/** The current definition of a versioned document. */
export interface DocumentHead {
  id: string;
  projectId: string;
  version: number;
}

/** One kind of versioned document: its name in messages, where its versions are kept, its head as a version. */
export interface VersionedKind<
  H extends DocumentHead,
  V extends DocumentVersion,
  P extends DocumentPublication,
> {
  /** `Action`, `View`: starts the messages. */
  name: string;
  documents: VersionedDocuments<V, P>;
  versionOfHead(head: H, message?: string): V;
}

/** Every version, newest first, with the publications; the head counts even if its record was never written. */
export async function historyOf<
  H extends DocumentHead,
  V extends DocumentVersion,
  P extends DocumentPublication,
>(kind: VersionedKind<H, V, P>, head: H): Promise<{ latest: number; versions: V[]; publications: P[] }> {
  const [versions, publications] = await Promise.all([
    kind.documents.listVersions(head.projectId, head.id),
    kind.documents.listPublications(head.projectId, head.id),
  ]);
  if (!versions.some((v) => v.version === head.version)) versions.unshift(kind.versionOfHead(head));
  return { latest: head.version, versions, publications };
}

/** One version of the document; 404 naming the latest for a number it never had. */
export async function versionAt<
  H extends DocumentHead,
  V extends DocumentVersion,
  P extends DocumentPublication,
>(kind: VersionedKind<H, V, P>, head: H, version: number): Promise<V> {
  if (!Number.isInteger(version) || version < 1 || version > head.version) {
    throw new DoguError(
      'not_found',
      `${kind.name} '${head.id}' has no version ${version}; the latest is ${head.version}.`,
    );
  }
  if (version === head.version) return kind.versionOfHead(head);
  const stored = await kind.documents.getVersion(head.projectId, head.id, version);
  if (!stored) {
    throw new DoguError(
      'not_found',
      `Version ${version} of ${kind.name.toLowerCase()} '${head.id}' was not recorded.`,
    );
  }
  return stored;
}

/**
 * Writes the immutable version record of a head. Also heals a save that crashed between the head and
 * its version record (and heads saved before versioning existed): the head holds the definition.
 */
export async function recordHeadVersion<
  H extends DocumentHead,
  V extends DocumentVersion,
  P extends DocumentPublication,
>(kind: VersionedKind<H, V, P>, head: H, message = ''): Promise<void> {
  if (await kind.documents.getVersion(head.projectId, head.id, head.version)) return;
  await kind.documents.createVersion(kind.versionOfHead(head, message)).catch((error: unknown) => {
    if (!(error instanceof AlreadyExistsError)) throw error;
  });
}

/** Points the publication's environment at its version; the version it pointed at before, if any. */
export async function publish<
  H extends DocumentHead,
  V extends DocumentVersion,
  P extends DocumentPublication,
>(kind: VersionedKind<H, V, P>, documentId: string, publication: P): Promise<number | undefined> {
  const { projectId, environmentId } = publication;
  const previous = await kind.documents.getPublication(projectId, documentId, environmentId);
  await kind.documents.putPublication(publication);
  return previous?.version;
}

/** The environment follows the latest version again; 404 when nothing was published there. */
export async function unpublish<
  H extends DocumentHead,
  V extends DocumentVersion,
  P extends DocumentPublication,
>(
  kind: VersionedKind<H, V, P>,
  scope: { projectId: string; documentId: string; environmentId: string },
): Promise<void> {
  if (!(await kind.documents.deletePublication(scope.projectId, scope.documentId, scope.environmentId))) {
    throw new DoguError(
      'not_found',
      `${kind.name} '${scope.documentId}' has no version published to '${scope.environmentId}'.`,
    );
  }
}
