/**
 * The project's import graph as the TypeScript compiler reads it: the compiler lists each file's
 * imports (`import`, `import type`, `export … from`, `import()`) and resolves each to the module it
 * means, so the graph needs no parser or resolver of its own.
 */
import { relative, resolve } from 'node:path';
import { API } from 'typescript/unstable/sync';

const sourceFile = /\.(ts|tsx|mts)$/;

/**
 * Every file of the projects that lies under one of `folders` (relative to `root`), with the files
 * under those folders that it imports. Declaration files and tests are not rooms of the house.
 */
export function importGraph(
  root: string,
  tsconfigs: readonly string[],
  folders: readonly string[],
): Map<string, Set<string>> {
  const measured = (file: string): boolean => {
    const path = relative(root, file);
    return (
      sourceFile.test(path) &&
      !path.endsWith('.d.ts') &&
      !/\.test\.tsx?$/.test(path) &&
      !path.split('/').includes('node_modules') &&
      folders.some((folder) => path.startsWith(`${folder}/`))
    );
  };
  const api = new API({ cwd: root });
  try {
    const snapshot = api.updateSnapshot({
      openProjects: tsconfigs.map((tsconfig) => resolve(root, tsconfig)),
    });
    const graph = new Map<string, Set<string>>();
    for (const project of snapshot.getProjects()) {
      const files = project.program.getSourceFileNames().filter(measured);
      const byModuleName = new Map(files.map((file) => [file.replace(sourceFile, ''), file]));
      for (const file of files) {
        const source = project.program.getSourceFile(file);
        const targets = graph.get(relative(root, file)) ?? new Set<string>();
        graph.set(relative(root, file), targets);
        if (!source || source.imports.length === 0) continue;
        const modules = project.checker.getSymbolAtLocation([...source.imports]);
        for (const module of modules) {
          // A module symbol is named by its file's path without the extension, in quotes.
          const target = module ? byModuleName.get(module.name.replace(/^"|"$/g, '')) : undefined;
          if (target && target !== file) targets.add(relative(root, target));
        }
      }
    }
    return graph;
  } finally {
    api.close();
  }
}

/** Strongly connected components of more than one file (Tarjan): files that import each other in a loop. */
export function importCircles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    lowLink.set(file, index.get(file) ?? 0);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        lowLink.set(file, Math.min(lowLink.get(file) ?? 0, lowLink.get(target) ?? 0));
      } else if (onStack.has(target)) {
        lowLink.set(file, Math.min(lowLink.get(file) ?? 0, index.get(target) ?? 0));
      }
    }
    if (lowLink.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      component.push(member);
      if (member === file) break;
    }
    if (component.length > 1) circles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles.sort((a, b) => a.length - b.length || (a[0] ?? '').localeCompare(b[0] ?? ''));
}
