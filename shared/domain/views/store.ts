/**
 * How views are kept: like actions (shared/domain/versions.ts), a head that is the latest version,
 * an immutable record per version, and at most one publication per environment.
 */
import type { CompiledViewSource, View, ViewInput } from '../definitions/view.ts';

export interface ViewVersion {
  projectId: string;
  viewId: string;
  version: number;
  /** The whole input of that save: name, description, group, permission and definition. */
  definition: ViewInput;
  /** Code views: what the source compiled to at that save. */
  compiled?: CompiledViewSource;
  author: { id: string; email: string };
  createdAt: string;
  message: string;
}

export interface ViewPublication {
  projectId: string;
  viewId: string;
  environmentId: string;
  version: number;
  publishedBy: { id: string; email: string };
  publishedAt: string;
}

export interface ViewStore {
  getView(projectId: string, viewId: string): Promise<View | undefined>;
  listViews(projectId: string): Promise<View[]>;
  /** Saves the head only if the stored version is `expectedVersion` (0: must not exist yet); false on conflict. */
  saveView(view: View, expectedVersion: number): Promise<boolean>;
  /** Deletes the head, its versions and publications; false when there was no head. */
  deleteView(projectId: string, viewId: string): Promise<boolean>;
  /** Versions are immutable: AlreadyExistsError when that number exists. */
  createViewVersion(version: ViewVersion): Promise<void>;
  getViewVersion(projectId: string, viewId: string, version: number): Promise<ViewVersion | undefined>;
  /** Newest first. */
  listViewVersions(projectId: string, viewId: string): Promise<ViewVersion[]>;
  getViewPublication(
    projectId: string,
    viewId: string,
    environmentId: string,
  ): Promise<ViewPublication | undefined>;
  listViewPublications(projectId: string, viewId: string): Promise<ViewPublication[]>;
  putViewPublication(publication: ViewPublication): Promise<void>;
  deleteViewPublication(projectId: string, viewId: string, environmentId: string): Promise<boolean>;
}
