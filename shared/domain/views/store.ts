/**
 * How views are kept: like actions, a head that is the latest version, immutable versions and at
 * most one publication per environment (shared/domain/versioned-documents.ts keeps both kinds).
 */
import type { CompiledViewSource, View, ViewInput } from '../definitions/view.ts';
import type { DocumentPublication, DocumentVersion } from '../versioned-documents.ts';

export interface ViewVersion extends DocumentVersion {
  viewId: string;
  /** The whole input of that save: name, description, group, permission and definition. */
  definition: ViewInput;
  /** Code views: what the source compiled to at that save. */
  compiled?: CompiledViewSource;
}

export interface ViewPublication extends DocumentPublication {
  viewId: string;
}

/** The heads of views; their versions and publications are `Store.viewVersions`. */
export interface ViewStore {
  getView(projectId: string, viewId: string): Promise<View | undefined>;
  listViews(projectId: string): Promise<View[]>;
  /** Saves the head only if the stored version is `expectedVersion` (0: must not exist yet); false on conflict. */
  saveView(view: View, expectedVersion: number): Promise<boolean>;
  /** Deletes the head, its versions and publications; false when there was no head. */
  deleteView(projectId: string, viewId: string): Promise<boolean>;
}
